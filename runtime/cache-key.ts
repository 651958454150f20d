/**
 * The prompt-cache key of a compiled payload: sha256 of the canonical JSON of
 * everything the provider caches before the conversation, as sent:
 *
 * - the target;
 * - the tools, in request order, exactly as sent — except where the provider
 *   itself keeps a tool out of the cached prefix: Anthropic leaves tools with
 *   `defer_loading: true` out of it ("Deferred tools are not included in the
 *   system-prompt prefix"), so they are left out of the key there. On OpenAI
 *   Responses a deferred function still shows its name and description, and
 *   Chat Completions and Gemini have no deferral: there every tool counts;
 * - `tool_choice` (Gemini `toolConfig`) when the payload carries one;
 * - the system text (your `system`, the history's system messages that join
 *   it, the directory; on Anthropic also the hoisted announcement block, which
 *   is sent in `system`).
 *
 * So the key changes if and only if those bytes change: loading a toolkit with
 * the `append` strategy changes it (the loaded tools are sent in `tools`);
 * the native strategies, blocking and announcing at the tail do not. A
 * tool's `cache_control` marker is not content and is not in the key.
 *
 * Per-compile cost is a map lookup: the serialization and hash are memoized on
 * the identity of the tools array (compile hands back the same frozen array
 * while the tool set is unchanged) plus the system text.
 */
import { createHash } from 'node:crypto';
import type { Target } from './contract.js';

/** The cached prefix of one compile, shared by every payload compiled from the same inputs. */
export interface StablePrefix {
  /** sha256 hex of `serialized`. */
  readonly key: string;
  /** Canonical JSON (sorted keys) of `{ v, target, tools, tool_choice?, system }`. */
  readonly serialized: string;
  /** How many tools the prefix holds (Anthropic: deferred ones not counted). */
  readonly toolCount: number;
}

const KEY_FORMAT = 2;

// tools array identity → (target, tool_choice) → system text → prefix. The
// system text is a key of its own (not concatenated into one), so a long
// prompt is not copied on every compile.
const memo = new WeakMap<readonly unknown[], Map<string, Map<string, StablePrefix>>>();
// tools array identity → the last prefix returned for it. Checked first: the
// same target, tool_choice and system string (usually the very same string
// object, so `===` is a pointer compare) as last turn need no string hashing,
// whatever the length of the prompt.
const lastHit = new WeakMap<readonly unknown[], { readonly memoKey: string; readonly system: string; readonly prefix: StablePrefix }>();
// Canonical JSON of tool_choice objects (frozen ones memoized).
const choiceJson = new WeakMap<object, string>();
// compiled payload → its prefix, so `cacheKey(payload)` needs no second argument.
const byPayload = new WeakMap<object, StablePrefix>();

/**
 * The cached prefix of a compile, memoized on `tools`' identity.
 *
 * @example
 * stablePrefix('anthropic', payloadTools, 'You are terse.', undefined).key; // → '3f1c…' (64 hex)
 */
export function stablePrefix(target: Target, tools: readonly unknown[], system: string, toolChoice: unknown): StablePrefix {
  const memoKey = toolChoice === undefined ? target : `${target}\u0000${choiceKey(toolChoice)}`;
  const last = lastHit.get(tools);
  if (last !== undefined && last.memoKey === memoKey && last.system === system) return last.prefix;
  const prefix = memoizedPrefix(target, tools, system, toolChoice, memoKey);
  lastHit.set(tools, { memoKey, system, prefix });
  return prefix;
}

function memoizedPrefix(target: Target, sent: readonly unknown[], system: string, toolChoice: unknown, memoKey: string): StablePrefix {
  let forTools = memo.get(sent);
  if (forTools === undefined) {
    forTools = new Map();
    memo.set(sent, forTools);
  }
  let bySystem = forTools.get(memoKey);
  if (bySystem === undefined) {
    bySystem = new Map();
    forTools.set(memoKey, bySystem);
  }
  const hit = bySystem.get(system);
  if (hit !== undefined) return hit;
  const tools = (target === 'anthropic' ? sent.filter((t) => !isMarkedDeferred(t)) : [...sent]).map(withoutCacheControl);
  const serialized = canonicalJson({ v: KEY_FORMAT, target, tools, tool_choice: toolChoice, system });
  const prefix: StablePrefix = Object.freeze({
    key: createHash('sha256').update(serialized).digest('hex'),
    serialized,
    toolCount: tools.length,
  });
  bySystem.set(system, prefix);
  return prefix;
}

/** A tool without its own `cache_control` marker (a breakpoint, not content). */
function withoutCacheControl(tool: unknown): unknown {
  if (typeof tool !== 'object' || tool === null || !Object.hasOwn(tool, 'cache_control')) return tool;
  const { cache_control: _marker, ...rest } = tool as Record<string, unknown>;
  return rest;
}

function choiceKey(choice: unknown): string {
  if (typeof choice !== 'object' || choice === null) return canonicalJson(choice);
  let json = choiceJson.get(choice);
  if (json === undefined) {
    json = canonicalJson(choice);
    if (Object.isFrozen(choice)) choiceJson.set(choice, json);
  }
  return json;
}

/**
 * Remember which prefix a compiled payload was built on (targets/compile.ts calls this).
 *
 * @example
 * registerPayloadPrefix(payload, stablePrefix('openai', stable, system, undefined));
 */
export function registerPayloadPrefix(payload: object, prefix: StablePrefix): void {
  byPayload.set(payload, prefix);
}

/**
 * The cache key of a payload returned by `compileForTarget` / `router.compile`:
 * equal for two payloads exactly when the bytes the provider caches before the
 * conversation (tools as kept by the provider, tool_choice, system) are equal. Undefined
 * for an object that did not come from compile (a copy, a JSON round trip).
 *
 * @example
 * const payload = compileForTarget({ target: 'anthropic', messages, stable, loaded: [], directoryXml: '', announcements: [] });
 * cacheKey(payload); // → '3f1c…'; unchanged by announce(), blocking, native toolkit loads
 */
export function cacheKey(payload: object): string | undefined {
  return byPayload.get(payload)?.key;
}

/**
 * The serialized stable prefix of a compiled payload (what {@link cacheKey} hashes),
 * for tests and cache diagnostics; undefined for an object that did not come from compile.
 *
 * @example
 * stablePrefixOf(payload)?.toolCount; // → 3
 */
export function stablePrefixOf(payload: object): StablePrefix | undefined {
  return byPayload.get(payload);
}

/**
 * Whether a rendered tool says it is deferred on the wire (`defer_loading: true`,
 * Anthropic and Responses). On Chat Completions and Gemini the flag is dropped
 * from the rendering.
 *
 * @example
 * isMarkedDeferred({ name: 'get_forecast', defer_loading: true }); // → true
 */
export function isMarkedDeferred(tool: unknown): boolean {
  return typeof tool === 'object' && tool !== null && (tool as { defer_loading?: unknown }).defer_loading === true;
}

/**
 * JSON with object keys sorted by UTF-16 code units (locale-independent), so
 * the same value gives the same bytes on every machine (the cache key; the
 * generator also keys distinct validator schemas with it). `undefined` object
 * members are omitted as JSON.stringify omits them.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // → '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort(compareCodeUnits)) {
    const v = record[key];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The prompt-cache key of a compiled payload: sha256 of the canonical JSON of
 * its stable prefix — the target, the stable tools (search tool first, deferred
 * tools left out), then the stable system text.
 *
 * What is deliberately NOT in it, so none of these ever changes the key:
 * deferred tools (the seed: "deferred definitions are stripped before the cache
 * key"), loaded toolkits' tools (appended after the prefix), the blocklist
 * (enforced at dispatch, the tool list never changes), announcements (rendered
 * at the conversation tail; the Anthropic no-tail hoist goes into a separate
 * system block after the stable text — see targets/compile.ts), and the messages.
 *
 * Per-compile cost is a map lookup: the serialization and hash are memoized on
 * the identity of the `stable` array (the router passes the same frozen array
 * while the chosen tool set is unchanged) plus the system text.
 */
import { createHash } from 'node:crypto';
import type { Target } from './contract.js';

/** The stable prefix of one compile, shared by every payload compiled from the same inputs. */
export interface StablePrefix {
  /** sha256 hex of `serialized`. */
  readonly key: string;
  /** Canonical JSON (sorted keys) of `{ v, target, tools, system }`. */
  readonly serialized: string;
  /** How many tools the prefix holds (search tool included, deferred ones not). */
  readonly toolCount: number;
}

const KEY_FORMAT = 1;

// stable array identity → (target, search tool) → system text → prefix. The
// system text is a key of its own (not concatenated into one), so a long
// prompt is not copied on every compile.
const memo = new WeakMap<readonly unknown[], Map<string, Map<string, StablePrefix>>>();
// stable array identity → the last prefix returned for it. Checked first: the
// same target, search tool and system string (usually the very same string
// object, so `===` is a pointer compare) as last turn need no string hashing,
// whatever the length of the prompt.
const lastHit = new WeakMap<readonly unknown[], { readonly memoKey: string; readonly system: string; readonly prefix: StablePrefix }>();
// Canonical JSON of search-tool objects (compile passes constants: computed once each).
const searchJson = new WeakMap<object, string>();
// compiled payload → its prefix, so `cacheKey(payload)` needs no second argument.
const byPayload = new WeakMap<object, StablePrefix>();

/**
 * The stable prefix of a compile, memoized on `stable`'s identity.
 *
 * @example
 * stablePrefix('anthropic', renderedTools, 'You are terse.', undefined).key; // → '3f1c…' (64 hex)
 */
export function stablePrefix(
  target: Target,
  stable: readonly unknown[],
  system: string,
  searchTool: unknown,
): StablePrefix {
  const memoKey = searchTool === undefined ? target : `${target}\u0000${searchKey(searchTool)}`;
  const last = lastHit.get(stable);
  if (last !== undefined && last.memoKey === memoKey && last.system === system) return last.prefix;
  const prefix = memoizedPrefix(target, stable, system, searchTool, memoKey);
  lastHit.set(stable, { memoKey, system, prefix });
  return prefix;
}

function memoizedPrefix(target: Target, stable: readonly unknown[], system: string, searchTool: unknown, memoKey: string): StablePrefix {
  let forStable = memo.get(stable);
  if (forStable === undefined) {
    forStable = new Map();
    memo.set(stable, forStable);
  }
  let bySystem = forStable.get(memoKey);
  if (bySystem === undefined) {
    bySystem = new Map();
    forStable.set(memoKey, bySystem);
  }
  const hit = bySystem.get(system);
  if (hit !== undefined) return hit;
  const tools = [...(searchTool === undefined ? [] : [searchTool]), ...stable.filter((t) => !isMarkedDeferred(t))];
  const serialized = canonicalJson({ v: KEY_FORMAT, target, tools, system });
  const prefix: StablePrefix = Object.freeze({
    key: createHash('sha256').update(serialized).digest('hex'),
    serialized,
    toolCount: tools.length,
  });
  bySystem.set(system, prefix);
  return prefix;
}

function searchKey(tool: unknown): string {
  if (typeof tool !== 'object' || tool === null) return canonicalJson(tool);
  let json = searchJson.get(tool);
  if (json === undefined) {
    json = canonicalJson(tool);
    // Only frozen objects are memoized: a mutable one could change under the memo.
    if (Object.isFrozen(tool)) searchJson.set(tool, json);
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
 * equal for two payloads exactly when their stable prefixes are equal. Undefined
 * for an object that did not come from compile (a copy, a JSON round trip).
 *
 * @example
 * const payload = compileForTarget({ target: 'anthropic', messages, stable, loaded: [], directoryXml: '', announcements: [] });
 * cacheKey(payload); // → '3f1c…'; unchanged by announce(), loadToolkit(), deferred tools
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
 * from the rendering, so callers pass deferred tools separately (`deferred`).
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

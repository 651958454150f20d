/**
 * The prompt-cache key of a compiled payload: sha256 of the canonical JSON of what the provider caches before the
 * conversation (target, cached tools, `tool_choice`, system text), so it changes exactly when those bytes do.
 */
import { createHash } from 'node:crypto';
import type { Target } from './contract.js';
import type { TargetAdapter } from './targets/adapter.js';

/** The cached prefix of one compile. */
export interface StablePrefix {
  /** sha256 hex of `serialized`. */
  readonly key: string;
  /** Canonical JSON (sorted keys) of `{ v, target, tools, tool_choice?, system }`. */
  readonly serialized: string;
  /** How many tools the prefix holds. */
  readonly toolCount: number;
}

const KEY_FORMAT = 2;

// The last prefix per tools array: a turn with the same frozen tools, choice and system is a lookup, not a
// serialization of every tool.
const last = new WeakMap<readonly unknown[], { readonly target: Target; readonly choice: string | undefined; readonly system: string; readonly prefix: StablePrefix }>();
const byPayload = new WeakMap<object, StablePrefix>();

/** The cached prefix of a compile (targets/compile.ts), memoized on `tools`' identity. */
export function stablePrefix(adapter: Pick<TargetAdapter<Target>, 'target' | 'cachedTools'>, tools: readonly unknown[], system: string, toolChoice: unknown): StablePrefix {
  const { target } = adapter;
  const choice = toolChoice === undefined ? undefined : canonicalJson(toolChoice);
  const hit = last.get(tools);
  if (hit !== undefined && hit.target === target && hit.choice === choice && hit.system === system) return hit.prefix;
  const cached = adapter.cachedTools(tools).map(withoutCacheControl);
  const serialized = canonicalJson({ v: KEY_FORMAT, target, tools: cached, tool_choice: toolChoice, system });
  const prefix: StablePrefix = Object.freeze({ key: createHash('sha256').update(Buffer.from(serialized)).digest('hex'), serialized, toolCount: cached.length }); // a Buffer: Node hashes a long string 3× slower
  last.set(tools, { target, choice, system, prefix });
  return prefix;
}

/** A value without its own top-level `cache_control` marker (deeper down it could be a schema property, which is content). */
export function withoutCacheControl(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, 'cache_control')) return value;
  const { cache_control: _marker, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** Remember which prefix a compiled payload was built on. */
export function registerPayloadPrefix(payload: object, prefix: StablePrefix): void { byPayload.set(payload, prefix); }

/**
 * The cache key of a compiled payload, equal exactly when the bytes the provider caches before the conversation are;
 * undefined for an object that did not come from compile.
 * @example cacheKey(router.compile({ target: 'anthropic', messages })); // → '3f1c…'; unchanged by announce(), blocking, native toolkit loads
 */
export function cacheKey(payload: object): string | undefined { return byPayload.get(payload)?.key; }

/**
 * The serialized stable prefix of a compiled payload (what {@link cacheKey} hashes), for tests and diagnostics.
 * @example stablePrefixOf(payload)?.toolCount; // → 3
 */
export function stablePrefixOf(payload: object): StablePrefix | undefined { return byPayload.get(payload); }

/**
 * JSON with object keys sorted by UTF-16 code units (locale-independent), so the same value gives the same bytes on
 * every machine; `undefined` members omitted as JSON.stringify omits them.
 * @example canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // → '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  // An undefined array member is 'null' by the first line, as JSON.stringify writes it.
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts = Object.keys(record).sort().flatMap((key) => {
    const v = record[key];
    return v === undefined || typeof v === 'function' || typeof v === 'symbol' ? [] : [`${JSON.stringify(key)}:${canonicalJson(v)}`];
  });
  return `{${parts.join(',')}}`;
}

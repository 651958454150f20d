/**
 * How much of one compiled request a provider's prompt cache can reuse for the next: the request is cut into blocks in
 * the provider's cache order (the adapter's `cacheBlocks`), and the reuse is the longest run of leading blocks that are
 * byte-for-byte equal. A `tool_choice` change counts as breaking everything after the tools (the conservative reading).
 */
import { withoutCacheControl } from './cache-key.js';
import type { Target } from './contract.js';
import { isRecord } from './targets/history.js';
import { TARGET_ADAPTERS } from './targets/index.js';

/** One block of a request, in its provider's cache order. */
export interface CacheBlock {
  /** Which part of the request it belongs to. */
  readonly section: 'tools' | 'tool_choice' | 'system' | 'conversation';
  /** Where it is in the payload, for diagnostics (`tools[2]`, `messages[4].content[1]`). */
  readonly path: string;
  /** The block's JSON (what is compared). */
  readonly json: string;
  /** UTF-8 bytes of `json`. */
  readonly bytes: number;
}

/** How much of `previous` is an exact prefix of `next`. */
export interface CacheReuse {
  readonly target: Target;
  /** Leading blocks of `previous` equal to `next`'s at the same positions. */
  readonly reusedBlocks: number;
  /** Blocks in `previous`. */
  readonly totalBlocks: number;
  /** Bytes of the reused blocks. */
  readonly reusedBytes: number;
  /** Bytes of all blocks of `previous`. */
  readonly totalBytes: number;
  /** `previous` is entirely a prefix of `next`. */
  readonly full: boolean;
  /** The first block of `previous` that `next` does not repeat (absent when `full`). */
  readonly firstMismatch?: CacheBlock;
}

const UNSERIALIZABLE = '\u0000unserializable';

/**
 * A compiled payload cut into cache blocks, in its provider's cache order. Total: any payload gives a list; a block
 * that is not JSON never matches.
 * @example
 * cacheBlocks('openai', { messages: [{ role: 'user', content: 'hi' }] });
 * // → [{ section: 'conversation', path: 'messages[0]', json: '{"role":"user","content":"hi"}', bytes: 30 }]
 */
export function cacheBlocks(target: Target, payload: unknown): CacheBlock[] {
  const out: CacheBlock[] = [];
  if (!Object.hasOwn(TARGET_ADAPTERS, target)) return out;
  TARGET_ADAPTERS[target].cacheBlocks(isRecord(payload) ? payload : {}, (section, path, value) => {
    let json: string;
    try {
      json = JSON.stringify(withoutCacheControl(value)) ?? 'null';
    } catch {
      json = UNSERIALIZABLE;
    }
    out.push({ section, path, json, bytes: Buffer.byteLength(json, 'utf8') });
  });
  return out;
}

/**
 * How much of `previous` (two payloads compiled for the same target) the provider can serve from its cache when `next`
 * is sent; `full` when `next` starts with the whole of `previous` (an append-only conversation).
 * @example
 * const before = router.compile({ target: 'anthropic', system, messages });
 * messages.push(reply, toolResult);
 * cacheReuse('anthropic', before, router.compile({ target: 'anthropic', system, messages })); // → { full: true, reusedBlocks: 7, … }
 */
export function cacheReuse(target: Target, previous: unknown, next: unknown): CacheReuse {
  return blocksReuse(target, cacheBlocks(target, previous), cacheBlocks(target, next));
}

/**
 * {@link cacheReuse} on payloads already cut into blocks: a long conversation cuts each payload once, not once per comparison.
 * @example
 * blocksReuse('openai', cacheBlocks('openai', before), cacheBlocks('openai', after)).full; // → true
 */
export function blocksReuse(target: Target, previous: readonly CacheBlock[], next: readonly CacheBlock[]): CacheReuse {
  const mismatch = previous.findIndex((block, i) => block.json !== next[i]?.json || block.json === UNSERIALIZABLE);
  const reusedBlocks = mismatch === -1 ? previous.length : mismatch;
  const bytes = (blocks: readonly CacheBlock[]): number => blocks.reduce((n, block) => n + block.bytes, 0);
  const result: CacheReuse = { target, reusedBlocks, totalBlocks: previous.length, reusedBytes: bytes(previous.slice(0, reusedBlocks)), totalBytes: bytes(previous), full: mismatch === -1 };
  return mismatch === -1 ? result : { ...result, firstMismatch: previous[mismatch]! };
}

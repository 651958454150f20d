/**
 * Token counting for `toolroute inspect`: exact for OpenAI targets with the optional peer
 * `gpt-tokenizer` (o200k_base), an estimate (UTF-8 bytes / 4) otherwise, labelled so: Anthropic and
 * Google publish no tokenizer package.
 */
import type { Target } from '../../runtime/contract.js';

/** How the token numbers of one target were obtained. */
export type TokenMethod = 'o200k' | 'o200k-estimate' | 'bytes-estimate';

/** Counts tokens of a text, and says how (per target). */
export interface TokenCounter {
  /** Human-readable name of what counts, e.g. `o200k_base (gpt-tokenizer 4.0.0)`. */
  readonly name: string;
  count(text: string): number;
  method(target: Target): TokenMethod;
}

/** The targets whose models use o200k_base. */
export const O200K_TARGETS: readonly Target[] = ['openai', 'openai-responses'];

/** Fallback when no tokenizer is installed: a rough 4 bytes per token (JSON and English text). */
export const BYTES_PER_TOKEN_ESTIMATE = 4;

/**
 * The o200k tokenizer when `gpt-tokenizer` is installed, else a bytes/4 estimate.
 *
 * @example
 * const counter = await loadTokenCounter();
 * counter.count('{"name":"read_file"}'); // 6 with o200k
 * counter.method('anthropic');          // 'o200k-estimate'
 */
export async function loadTokenCounter(): Promise<TokenCounter> {
  let countTokens: ((text: string) => number) | undefined;
  let version = '';
  try {
    const mod = (await import('gpt-tokenizer/encoding/o200k_base')) as { countTokens: (text: string) => number };
    countTokens = mod.countTokens;
    version = await packageVersion();
  } catch {
    // Not installed (an optional peer dependency): estimates only.
  }
  if (countTokens === undefined) return bytesEstimate();
  const count = countTokens;
  return {
    name: `o200k_base (gpt-tokenizer${version === '' ? '' : ` ${version}`})`,
    count: (text) => count(text),
    method: (target) => (O200K_TARGETS.includes(target) ? 'o200k' : 'o200k-estimate'),
  };
}

/**
 * The estimate used without a tokenizer: UTF-8 bytes / 4, rounded up.
 *
 * @example
 * bytesEstimate().count('abcdefgh'); // 2
 */
export function bytesEstimate(): TokenCounter {
  return {
    name: `estimate (UTF-8 bytes / ${BYTES_PER_TOKEN_ESTIMATE}; install gpt-tokenizer for o200k counts)`,
    count: (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN_ESTIMATE),
    method: () => 'bytes-estimate',
  };
}

async function packageVersion(): Promise<string> {
  try {
    const { createRequire } = await import('node:module');
    const pkg = createRequire(import.meta.url)('gpt-tokenizer/package.json') as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '';
  } catch {
    return '';
  }
}

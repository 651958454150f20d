/**
 * `serveMcpHttp`'s own options (the HTTP listener and its session limits), checked before anything starts, so a
 * mistake never leaves a server listening.
 */
import { MAX_TIMER_MS } from '../../runtime/router/invoke.js';
import { assertKnownNames } from '../../runtime/suggest.js';
import type { ServeMcpHttpOptions } from './http.js';

/** Defaults of the session and body limits (docs/mcp.md). */
export const MCP_HTTP_DEFAULTS = { idleTimeoutMs: 15 * 60_000, maxSessions: 1000, maxBodyBytes: 4 * 1024 * 1024 } as const;

/** Every option `serveMcpHttp` reads (its own, then `serveMcp`'s): another key is a typo and throws. */
const OPTION_NAMES: ReadonlySet<string> = new Set(['port', 'host', 'path', 'allowedHosts', 'idleTimeoutMs', 'maxSessions', 'maxBodyBytes', 'store', 'name', 'version', 'instructions', 'context', 'sdk', 'generated', 'onError']);

/** The listener and limits `serveMcpHttp` runs with: the options as given, defaults filled in. */
export interface HttpSettings {
  readonly host: string;
  readonly route: string;
  readonly allowedHosts: readonly string[] | undefined;
  readonly idleTimeoutMs: number;
  /**
   * How long a stored record lives after a write or touch: the idle timeout and the tenth within which a touch is
   * skipped, so the record never expires before the session has been idle that long.
   */
  readonly storedMs: number;
  readonly maxSessions: number;
  readonly maxBodyBytes: number;
}

/**
 * Checks `serveMcpHttp`'s options (a misspelt name or a bad value throws) and fills in the defaults.
 *
 * @example
 * httpSettings({ idleTimeoutMs: 60_000 }).storedMs; // 66000
 */
export function httpSettings<C>(options: ServeMcpHttpOptions<C>): HttpSettings {
  assertKnownNames('serveMcpHttp options', Object.keys(options), OPTION_NAMES, () => OPTION_NAMES, `Options are ${[...OPTION_NAMES].join(', ')}.`);
  const names = options.allowedHosts;
  if (names !== undefined && !(Array.isArray(names) && names.every((n) => typeof n === 'string'))) {
    throw new TypeError(`serveMcpHttp: allowedHosts must be an array of host names; got ${JSON.stringify(names) ?? typeof names}.`);
  }
  if (options.path !== undefined && !(typeof options.path === 'string' && options.path.startsWith('/'))) {
    throw new TypeError(`serveMcpHttp: path must start with "/"; got ${JSON.stringify(options.path) ?? typeof options.path}.`);
  }
  const idleTimeoutMs = positive('idleTimeoutMs', options.idleTimeoutMs ?? MCP_HTTP_DEFAULTS.idleTimeoutMs);
  return {
    host: options.host ?? '127.0.0.1',
    route: options.path ?? '/mcp',
    allowedHosts: names,
    idleTimeoutMs,
    storedMs: idleTimeoutMs + Math.ceil(idleTimeoutMs / 10),
    maxSessions: positive('maxSessions', options.maxSessions ?? MCP_HTTP_DEFAULTS.maxSessions),
    maxBodyBytes: positive('maxBodyBytes', options.maxBodyBytes ?? MCP_HTTP_DEFAULTS.maxBodyBytes),
  };
}

function positive(name: string, value: number): number {
  if (!(typeof value === 'number' && value > 0)) throw new RangeError(`serveMcpHttp: ${name} must be a positive number, got ${String(value)}.`);
  // A count of sessions or bytes is whole: 1.5 would silently mean 2.
  if (name !== 'idleTimeoutMs' && !Number.isInteger(value)) throw new RangeError(`serveMcpHttp: ${name} must be a whole number, got ${String(value)}.`);
  // A timer of more than about 24.8 days fires at once in Node: every session would end on its next request.
  if (name === 'idleTimeoutMs' && value > MAX_TIMER_MS) throw new RangeError(`serveMcpHttp: idleTimeoutMs must be at most ${MAX_TIMER_MS} (about 24.8 days), got ${String(value)}.`);
  return value;
}

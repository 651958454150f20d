/**
 * Where `serveMcpHttp` keeps its MCP sessions: one record per session, read on
 * every request and written after every tool call that changes its state, so that any process holding
 * the same store can answer any request of the session (no sticky routing).
 * In memory by default (one process); `redisSessionStore` shares it between processes.
 */

/** One MCP session as stored: plain JSON. */
export interface McpSessionRecord {
  /** The client's `initialize` request, replayed by a process that has not seen the session yet. */
  readonly initialize: unknown;
  /** The session's router state (`router.snapshot()`), when each session has its own router. */
  readonly snapshot?: unknown;
  /** The announcements the session has been shown, rendered ('' = none). */
  readonly shown: string;
  /** Changes on every write: a process whose copy is older restores from the record. */
  readonly revision: string;
}

/**
 * The store `serveMcpHttp` keeps sessions in. Every method may be async. A record
 * is gone `ttlMs` after its last `set` (the server sets it again on activity).
 *
 * @example
 * const store: McpSessionStore = memorySessionStore();
 * await store.set('id', record, 60_000); await store.get('id'); // → record
 */
export interface McpSessionStore {
  get(id: string): Promise<McpSessionRecord | undefined> | McpSessionRecord | undefined;
  set(id: string, record: McpSessionRecord, ttlMs: number): Promise<unknown> | unknown;
  /** Keep the record `ttlMs` from now without rewriting it (activity without a tool call, a request still running). */
  touch(id: string, ttlMs: number): Promise<unknown> | unknown;
  delete(id: string): Promise<unknown> | unknown;
}

/**
 * `serveMcpHttp`'s `store` option, checked before the server listens: a store missing a method would fail every
 * `initialize` (or, without `touch`, a later request) instead. Absent: a new {@link memorySessionStore}.
 * @example sessionStoreOption(undefined); // → a memory store
 */
export function sessionStoreOption(store: unknown): McpSessionStore {
  if (store === undefined) return memorySessionStore();
  const missing = (['get', 'set', 'touch', 'delete'] as const).filter((m) => typeof (store as Partial<McpSessionStore> | null)?.[m] !== 'function');
  if (missing.length > 0) throw new TypeError(`serveMcpHttp: store must have the methods get, set, touch and delete (an McpSessionStore); it lacks ${missing.join(', ')}.`);
  return store as McpSessionStore;
}

/** The in-memory store, with its size (for tests and metrics). */
export interface MemorySessionStore extends McpSessionStore {
  readonly size: number;
}

/**
 * Sessions in this process's memory (the default): each record is dropped
 * `ttlMs` after its last write, by a timer that does not keep the process alive.
 *
 * @example
 * await serveMcpHttp(createSessionRouter, { store: memorySessionStore() });
 */
export function memorySessionStore(): MemorySessionStore {
  const records = new Map<string, { record: McpSessionRecord; timer: NodeJS.Timeout }>();
  return {
    get size() {
      return records.size;
    },
    get: (id) => records.get(id)?.record,
    set(id, record, ttlMs) {
      const old = records.get(id);
      if (old) clearTimeout(old.timer);
      const timer = setTimeout(() => records.delete(id), ttlMs);
      timer.unref();
      records.set(id, { record, timer });
    },
    touch(id, ttlMs) {
      const old = records.get(id);
      if (old) this.set(id, old.record, ttlMs);
    },
    delete(id) {
      const old = records.get(id);
      if (old) clearTimeout(old.timer);
      records.delete(id);
    },
  };
}

/**
 * The part of a Redis client the adapter uses: node-redis 4 and 5 (`createClient()`) have it as they are;
 * for another client write these four methods over it.
 */
export interface RedisLikeClient {
  get(key: string): Promise<string | null | undefined>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  pExpire(key: string, milliseconds: number): Promise<unknown>;
  del(key: string): Promise<unknown>;
}

/**
 * Sessions in Redis, as JSON under `<prefix><session id>` with a `PX` expiry, so that
 * several server processes behind one load balancer serve the same sessions.
 * The client is yours (connected, configured, closed by you); toolroute does not import `redis`.
 *
 * @example
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * await serveMcpHttp(createSessionRouter, { store: redisSessionStore(redis) });
 */
export function redisSessionStore(client: RedisLikeClient, options: { readonly prefix?: string } = {}): McpSessionStore {
  const prefix = options.prefix ?? 'toolroute:mcp:session:';
  return {
    async get(id) {
      const text = await client.get(prefix + id);
      return typeof text === 'string' ? (JSON.parse(text) as McpSessionRecord) : undefined;
    },
    set: (id, record, ttlMs) => client.set(prefix + id, JSON.stringify(record), { PX: Math.max(1, Math.ceil(ttlMs)) }),
    touch: (id, ttlMs) => client.pExpire(prefix + id, Math.max(1, Math.ceil(ttlMs))),
    delete: (id) => client.del(prefix + id),
  };
}

/**
 * A router served over MCP's Streamable HTTP transport: one MCP session per
 * client on the SDK's web-standard transport, with the checks and limits a
 * server facing real traffic needs.
 *
 * - Every request is checked, cheapest first and before its body is read
 *   (`http-request.ts`): `Host` and `Origin` (403), path (404), method (405),
 *   `Content-Type` and its charset (415), `Content-Length` against
 *   `maxBodyBytes` (413). The body is then read with the same limit counted
 *   while it streams, and parsed there (400 naming the problem).
 * - Sessions live in a store (`store.ts`): read on every request (an unknown
 *   or ended session answers 404, as the specification requires, so the client
 *   starts a new one; a copy older than the record is restored from it), written
 *   after a tool call that changed the session's state. A process that gets a
 *   request for a session it has not seen replays the session's stored
 *   `initialize` into a fresh transport and restores the router state, so
 *   processes sharing a store need no sticky routing.
 * - A session is freed on DELETE, when its transport closes, and after
 *   `idleTimeoutMs` without a request; a request still being answered counts
 *   as activity (the stored record is kept alive while one runs, and the idle
 *   clock starts when the last one finishes). At most `maxSessions` are open
 *   in a process (an `initialize` beyond answers 503).
 * - State: a router serves every session (shared: a load is seen by all, and
 *   every open session is told), or a function makes one router per session
 *   (isolated, stored with the session).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { loadMcpServerSdk } from './sdk.js';
import { annotationsOf, serveSession, type McpServing, type ServableRouter, type ServeMcpOptions, type SessionHooks } from './serve.js';
import { httpSettings, MCP_HTTP_DEFAULTS } from './http-options.js';
import { readBody, refuse, reply, requestIds } from './http-request.js';
import { sessionStoreOption, type McpSessionRecord, type McpSessionStore } from './store.js';
import type { McpTransport } from './types.js';

export { MCP_HTTP_DEFAULTS };

export interface ServeMcpHttpOptions<C = unknown> extends Omit<ServeMcpOptions<C>, 'transport'> {
  /** Default 0 (any free port). */
  readonly port?: number;
  /** Default `127.0.0.1`. */
  readonly host?: string;
  /** Default `/mcp`. */
  readonly path?: string;
  /**
   * The `Host` header values accepted (`name` or `name:port`); default: the host it listens on
   * and `localhost`, with and without the port. Any other `Host` is answered 403.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * A session no request reaches for this long, counted from when its last request finished, is closed (and, in the
   * store, expires); none expires while one of its requests is still being answered. Default 15 minutes.
   */
  readonly idleTimeoutMs?: number;
  /** Sessions open at once in this process; an `initialize` beyond answers 503. Default 1000. */
  readonly maxSessions?: number;
  /** Largest request body in bytes, checked from `Content-Length` and while reading; larger answers 413. Default 4 MiB. */
  readonly maxBodyBytes?: number;
  /** Where sessions are kept; default `memorySessionStore()` (this process only). */
  readonly store?: McpSessionStore;
}

export interface McpHttpServing {
  /** `http://host:port/path`, ready for `StreamableHTTPClientTransport`. */
  readonly url: URL;
  readonly http: HttpServer;
  /** Sessions open in this process, by session id. */
  readonly sessions: ReadonlyMap<string, McpServing>;
  /** Tell every open session its tool list changed (after `registerTools`, `restore`, … on a shared router). */
  notifyToolsChanged(): void;
  /** Stops listening and closes this process's sessions (their stored records stay for other processes). */
  close(): Promise<void>;
}

type WebTransport = McpTransport & { handleRequest(request: Request, options?: { parsedBody?: unknown }): Promise<Response> };

/** One session open in this process. */
interface Live {
  id: string;
  readonly transport: WebTransport;
  serving: McpServing;
  readonly initialize: unknown;
  readonly timer: NodeJS.Timeout;
  /** Revisions of the stored record this copy wrote or restored: another one means another process changed it. */
  readonly revisions: string[];
  readonly inflight: Map<string | number, AbortController>;
  /** Per request id: what its POST does when the client cancelled it (no response will follow). */
  readonly unanswered: Map<string | number, () => void>;
  /** POSTs being answered: the session is not idle while one runs. */
  active: number;
  /** When this process last wrote or touched the stored record (0: not yet). */
  touched: number;
  /** While `active > 0`: touches the stored record so that it cannot expire under a running request. */
  heartbeat: NodeJS.Timeout | undefined;
  /** A POST starts being answered. */
  started(): void;
  /** A POST has been answered (or dropped); the last one starts the idle clock. */
  finished(): void;
  /** Ended by the client (DELETE, here or on another process): a call still running must not write its record back. */
  closed: boolean;
  /** The session's state (router snapshot and announcements shown) as this process last wrote or read it. */
  saved: string | undefined;
  /** Brings the router and the announcements shown up to a record another process wrote; throws the router's refusal. */
  sync(record: McpSessionRecord): void;
  /** What the store threw when it could not write a new session's first record: the `initialize` is refused. */
  unstored?: { readonly error: unknown };
}

/**
 * Serve a router over Streamable HTTP on 127.0.0.1. Pass a router to share its
 * state (blocklist, loaded toolkits) between all sessions, or a function that
 * creates a router to give each session its own, kept in `store`.
 *
 * Against DNS rebinding, a request whose `Host` header is not one this server
 * answers to (see `allowedHosts`), or whose `Origin` header names another
 * host, is answered 403 before its body is read.
 *
 * @example
 * const served = await serveMcpHttp(() => createRouter(generated, handlers), { port: 3000, idleTimeoutMs: 600_000 });
 * console.log(`MCP at ${served.url}`);
 */
export async function serveMcpHttp<C = unknown>(source: ServableRouter | (() => ServableRouter), options: ServeMcpHttpOptions<C> = {}): Promise<McpHttpServing> {
  // Options are checked before anything starts: a mistake never leaves a server listening.
  const { host, route, allowedHosts: names, idleTimeoutMs, storedMs, maxSessions, maxBodyBytes } = httpSettings(options);
  const sdk = await loadMcpServerSdk(options.sdk);
  const { port: _port, host: _host, path: _path, allowedHosts: _allowed, idleTimeoutMs: _idle, maxSessions: _max, maxBodyBytes: _body, store: _store, ...serveOptions } = options;
  const store = sessionStoreOption(options.store);
  const perSession = typeof source === 'function' ? source : undefined;
  const probe = perSession ? perSession() : (source as ServableRouter);
  if (perSession && (typeof probe?.snapshot !== 'function' || typeof probe.restore !== 'function')) {
    throw new TypeError('serveMcpHttp: the router factory must return a router with snapshot() and restore() (createRouter does): each session\'s state is stored with it.');
  }
  if (options.generated !== undefined) annotationsOf(options.generated, probe, 'serveMcpHttp');
  const live = new Map<string, Live>();
  const sessions = new Map<string, McpServing>();
  const reviving = new Map<string, Promise<Live>>();
  let allowedHosts = new Set<string>();

  function forget(session: Live): void {
    clearTimeout(session.timer);
    clearInterval(session.heartbeat);
    session.heartbeat = undefined;
    if (live.get(session.id) !== session) return;
    live.delete(session.id);
    sessions.delete(session.id);
  }

  /** A session in this process: new (`record` undefined, the client's `initialize` follows) or revived from its record. */
  async function open(id: string | undefined, initialize: unknown, record: McpSessionRecord | undefined): Promise<Live> {
    const router = perSession ? perSession() : (source as ServableRouter);
    if (record?.snapshot !== undefined) router.restore!(record.snapshot);
    const shown = { text: record?.shown ?? '' };
    const transport: WebTransport = new sdk.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id ?? randomUUID(),
      onsessioninitialized: async (newId) => {
        session.id = newId;
        // Stored before it counts: a session the store cannot keep would be lost to every other process, and open here.
        if (!record) {
          await save().catch((error: unknown) => {
            session.unstored = { error };
            options.onError?.(error);
            throw error;
          });
        }
        live.set(newId, session);
        sessions.set(newId, session.serving);
      },
      onsessionclosed: async (closedId) => {
        session.closed = true;
        await store.delete(closedId);
      },
    });
    const timer = setTimeout(() => {
      if (session.active > 0) timer.refresh();
      else void session.serving.close().catch(() => undefined);
    }, idleTimeoutMs);
    timer.unref();
    /** What `save` writes besides `initialize` and the revision; its JSON text is equal when nothing changed. */
    const current = () => ({ ...(perSession ? { snapshot: router.snapshot!() } : {}), shown: shown.text });
    const session: Live = {
      id: id ?? '', transport, serving: undefined as never, initialize, timer, revisions: record ? [record.revision] : [], inflight: new Map(), unanswered: new Map(), active: 0,
      // A revived session has not touched the record yet: its first request does.
      touched: 0, heartbeat: undefined, closed: false, saved: record ? JSON.stringify(current()) : undefined,
      sync(stored) {
        if (perSession) router.restore!(stored.snapshot);
        shown.text = stored.shown;
        remember(stored.revision);
        this.saved = JSON.stringify(current());
      },
      started() {
        if (this.active++ > 0) return;
        // Every third of the timeout: the record (set to expire `storedMs` after a touch) never lapses in between.
        this.heartbeat = setInterval(() => void keep(this).catch(() => undefined), idleTimeoutMs / 3);
        this.heartbeat.unref();
      },
      finished() {
        if (--this.active > 0) return;
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
        void keep(this).catch(() => undefined);
      },
    };
    function remember(revision: string): void {
      session.revisions.push(revision);
      if (session.revisions.length > 16) session.revisions.shift();
    }
    /**
     * Writes the session's record, only when its state changed: a call that changed nothing must not put back the state
     * it started from over what another process stored meanwhile (a toolkit loaded, an announcement shown there).
     */
    async function save(): Promise<void> {
      const written = current();
      const now = JSON.stringify(written);
      if (session.closed || now === session.saved) return;
      // A record gone since this copy read it was ended elsewhere (a DELETE to another process): writing would revive it.
      if (session.saved !== undefined && (await store.get(session.id)) === undefined) {
        session.closed = true;
        return;
      }
      const revision = randomUUID();
      remember(revision);
      await store.set(session.id, { initialize, ...written, revision }, storedMs);
      session.saved = now;
      session.touched = Date.now();
    }
    const hooks: SessionHooks = {
      shown,
      after: save,
      dropped: (requestId) => session.inflight.get(requestId)?.signal,
      unanswered: (requestId) => session.unanswered.get(requestId)?.(),
      changed() {
        if (!perSession) for (const other of live.values()) if (other !== session) other.serving.notifyToolsChanged();
      },
    };
    transport.onclose = () => forget(session);
    session.serving = await serveSession(router, { ...serveOptions, sdk: sdk.line, transport }, hooks);
    if (id !== undefined) await replay(transport, id, initialize);
    return session;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = refuse(req, allowedHosts, route);
    if (refused) return reply(res, ...refused);
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req, maxBodyBytes);
      if ('status' in read) return reply(res, read.status, read.code, read.message, read.status === 413);
      body = read.body;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const record = await store.get(sessionId);
      const here = live.get(sessionId);
      if (record === undefined) {
        if (here) void here.serving.close().catch(() => undefined);
        return reply(res, 404, -32001, 'Session not found: it ended or expired. Start a new session with an initialize request.');
      }
      let session = here;
      if (session && !session.revisions.includes(record.revision)) {
        // Another process changed the session since this copy last saw it.
        try {
          session.sync(record);
        } catch (error) {
          if (!isRestoreRefusal(error)) throw error;
          void session.serving.close().catch(() => undefined);
          return gone(res, sessionId, error);
        }
      }
      if (!session) {
        if (await full(0)) return reply(res, 503, -32000, `Service unavailable: this server has its maximum of ${maxSessions} open sessions.`);
        let pending = reviving.get(sessionId);
        if (!pending) {
          pending = open(sessionId, record.initialize, record).finally(() => reviving.delete(sessionId));
          reviving.set(sessionId, pending);
        }
        try {
          session = await pending;
        } catch (error) {
          if (!isRestoreRefusal(error)) throw error;
          return gone(res, sessionId, error);
        }
      }
      // Activity keeps the stored record alive too (tool calls write it anyway).
      await keep(session);
      session.timer.refresh();
      return forward(session, req, res, body);
    }
    if (req.method !== 'POST') return reply(res, 400, -32000, `Bad Request: ${req.method} needs an Mcp-Session-Id header; start a session with an initialize request.`);
    if (!sdk.isInitializeRequest(body)) return reply(res, 400, -32000, 'Bad Request: no Mcp-Session-Id header, and the body is not an initialize request. Start a session with initialize.');
    if (await full(reviving.size)) return reply(res, 503, -32000, `Service unavailable: this server has its maximum of ${maxSessions} open sessions.`);
    const session = await open(undefined, body, undefined);
    await forward(session, req, res, body);
    // An initialize the transport refused leaves no session to keep.
    if (live.get(session.id) !== session) await session.serving.close().catch(() => undefined);
  }

  let pruned = 0;
  /**
   * Whether `pending` more sessions would go over `maxSessions`. At the limit, sessions ended on another process (a
   * DELETE there) are let go first: they would count here until their idle timeout. At most once a second, since it
   * reads every open session's record.
   */
  async function full(pending: number): Promise<boolean> {
    if (live.size + pending < maxSessions) return false;
    if (Date.now() - pruned >= 1000) {
      pruned = Date.now();
      await Promise.all([...live.values()].map(async (s) => {
        if ((await store.get(s.id)) === undefined) await s.serving.close().catch(() => undefined);
      }));
    }
    return live.size + pending >= maxSessions;
  }

  /**
   * Ends a session whose stored state the router refuses: it names what this server's spec does not have (a deploy
   * removed a blocked tool or a loaded toolkit), so the session cannot go on under these tools; the client starts a new one.
   */
  async function gone(res: ServerResponse, sessionId: string, refusal: TypeError): Promise<void> {
    await store.delete(sessionId);
    reply(res, 404, -32001, `Session not found: its stored state does not fit this server's tools (${refusal.message}). Start a new session with an initialize request.`);
  }

  /** Extends the stored record's life (`storedMs`) from now, unless this process did so in the last tenth of the idle timeout. */
  async function keep(session: Live): Promise<void> {
    if (session.closed || session.id === '' || Date.now() - session.touched <= idleTimeoutMs / 10) return;
    session.touched = Date.now();
    await store.touch(session.id, storedMs);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port ?? 0;
  // An IPv6 address goes in brackets in a URL and in a Host header.
  const hostName = host.includes(':') ? `[${host}]` : host;
  // `name:port` as given; a bare name (or bracketed address) also with this server's port.
  const withPort = (name: string) => (/:\d+$/.test(name) ? [name] : [name, `${name}:${port}`]);
  allowedHosts = new Set((names ?? [hostName, 'localhost']).flatMap(withPort).map((name) => name.toLowerCase()));
  return {
    url: new URL(`http://${hostName}:${port}${route}`),
    http,
    sessions,
    notifyToolsChanged: () => live.forEach((session) => session.serving.notifyToolsChanged()),
    async close() {
      await Promise.all([...live.values()].map((s) => s.serving.close().catch(() => undefined)));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** The router's refusal of a stored state (`restore` throws these); any other error stays a 500 of this server. */
function isRestoreRefusal(error: unknown): error is TypeError {
  return error instanceof TypeError && error.message.startsWith('restore:');
}

/** Brings a transport that has not seen the session to where the client's handshake left it. */
async function replay(transport: WebTransport, id: string, initialize: unknown): Promise<void> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const post = (message: unknown, extra: Record<string, string>) =>
    transport.handleRequest(new Request('http://localhost/', { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(message) }), { parsedBody: message });
  await (await post(initialize, {})).text();
  const version = (initialize as { params?: { protocolVersion?: unknown } }).params?.protocolVersion;
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, ...(typeof version === 'string' ? { 'mcp-protocol-version': version } : {}) })).text();
}

/** Hands a Node request to the web-standard transport and streams its response back (SSE included). */
async function forward(session: Live, req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const aborted = new AbortController();
  // A request dropped before its response is complete aborts the calls it carries.
  const calls = requestIds(parsedBody).map((id) => [id, new AbortController()] as const);
  for (const [id, controller] of calls) session.inflight.set(id, controller);
  // A POST whose every request the client cancelled gets no response from the SDK: its stream ends here, or the session
  // would count it as running for good (never idle, its stored record kept alive).
  const waiting = new Set(calls.map(([id]) => id));
  for (const id of waiting) {
    session.unanswered.set(id, () => {
      waiting.delete(id);
      if (waiting.size === 0) aborted.abort();
    });
  }
  // A POST keeps the session (and its stored record) alive until it is answered; a GET stream does not.
  const post = req.method === 'POST';
  if (post) session.started();
  res.once('close', () => {
    aborted.abort();
    if (post) session.finished();
    session.timer.refresh();
    for (const [id, controller] of calls) {
      if (!res.writableFinished) controller.abort(new Error('The client dropped the request.'));
      if (session.inflight.get(id) === controller) session.inflight.delete(id);
      session.unanswered.delete(id);
    }
  });
  const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), { method: req.method ?? 'GET', headers, signal: aborted.signal });
  const response = await session.transport.handleRequest(request, req.method === 'POST' ? { parsedBody } : {});
  // The SDK answers a failed session start as a parse error of the request, which the client cannot fix.
  if (session.unstored) {
    const { error } = session.unstored;
    return reply(res, 503, -32000, `Service unavailable: the session store could not keep a new session (${error instanceof Error ? error.message : String(error)}). Try again.`);
  }
  response.headers.forEach((value, key) => res.setHeader(key, value));
  res.writeHead(response.status);
  if (response.body === null) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  aborted.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } finally {
    res.end();
  }
}

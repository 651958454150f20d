/**
 * What an HTTP request to the MCP endpoint must be before it reaches a session: the checks made before its body is
 * read (cheapest first), the body read within its size limit, and the JSON-RPC error answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The checks made before a body is read, cheapest first: status, JSON-RPC code and message, or undefined. */
export function refuse(req: IncomingMessage, allowedHosts: ReadonlySet<string>, route: string): [number, number, string] | undefined {
  if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) return [403, -32000, `Forbidden: Host ${JSON.stringify(req.headers.host ?? '')} is not this server.`];
  if (req.headers.origin !== undefined && !allowedHosts.has(originHost(req.headers.origin))) return [403, -32000, `Forbidden: Origin ${JSON.stringify(req.headers.origin)} is not this server.`];
  if (new URL(req.url ?? '/', 'http://localhost').pathname !== route) return [404, -32601, `Not found: the MCP endpoint is ${route}.`];
  if (req.method !== 'POST' && req.method !== 'GET' && req.method !== 'DELETE') return [405, -32000, `Method not allowed: ${req.method} (the MCP endpoint takes POST, GET and DELETE).`];
  if (req.method === 'POST' && !/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
    return [415, -32000, `Unsupported Media Type: Content-Type must be application/json, not ${JSON.stringify(req.headers['content-type'] ?? '')}.`];
  }
  // The body is read as UTF-8, as JSON must be sent (RFC 8259): another charset would be read as other text.
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(req.headers['content-type'] ?? '')?.[1];
  if (req.method === 'POST' && charset !== undefined && !/^utf-?8$/i.test(charset)) {
    return [415, -32000, `Unsupported Media Type: the body must be UTF-8 JSON, not charset ${JSON.stringify(charset)}.`];
  }
  return undefined;
}

/** `host[:port]` of an `Origin` header; '' when it is not a URL (so it matches no allowed host). */
function originHost(origin: string): string {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return '';
  }
}

export type BodyRead = { body: unknown } | { status: number; code: number; message: string };

/** The JSON body, read only up to `limit` bytes: the declared length is checked first, the bytes as they arrive. */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const tooLarge = { status: 413, code: -32000, message: `Payload Too Large: the request body is over ${limit} bytes (maxBodyBytes).` };
  if (Number(req.headers['content-length']) > limit) return Promise.resolve(tooLarge);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (read: BodyRead) => {
      req.removeAllListeners('data').removeAllListeners('end');
      req.pause();
      resolve(read);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return stop(tooLarge);
      chunks.push(chunk);
    });
    req.on('error', () => stop({ status: 400, code: -32000, message: 'Bad Request: the request body could not be read.' }));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({ status: 400, code: -32700, message: 'Parse error: the request body is empty; send a JSON-RPC message.' });
      try {
        resolve({ body: JSON.parse(text) });
      } catch (error) {
        resolve({ status: 400, code: -32700, message: `Parse error: the request body is not JSON (${error instanceof Error ? error.message : String(error)}).` });
      }
    });
  });
}

/** Answers with a JSON-RPC error (`id: null`): the request never reached a session. */
export function reply(res: ServerResponse, status: number, code: number, message: string, closeConnection = false): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (status === 405) headers['allow'] = 'POST, GET, DELETE';
  if (status === 503) headers['retry-after'] = '5';
  // An unread body is left on the socket: close the connection rather than read it.
  if (closeConnection) headers['connection'] = 'close';
  res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The ids of the JSON-RPC requests in a body (a message or a batch). */
export function requestIds(body: unknown): (string | number)[] {
  return (Array.isArray(body) ? body : [body]).flatMap((m: { id?: unknown; method?: unknown } | null) =>
    m !== null && typeof m === 'object' && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number') ? [m.id] : [],
  );
}

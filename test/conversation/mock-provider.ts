/**
 * A local HTTP server that stands in for a provider API: it answers each POST
 * with the next scripted response and records every request as the SDK sent
 * it (raw text and parsed body). The official SDK clients are pointed at it
 * with their base URL, so every turn is a real HTTP round trip: the SDK's own
 * serialization, headers and response parsing, no fake fetch.
 *
 * Binds 127.0.0.1 on a free port; `close()` stops it (and it never keeps the
 * process alive: the server is unref'd).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The request body exactly as the SDK wrote it. */
  readonly text: string;
  readonly body: Record<string, unknown>;
  /** The request headers (lowercased names), e.g. `anthropic-beta`. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface MockProvider {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The response texts sent, in order (what the SDK parsed). */
  readonly sent: string[];
  close(): Promise<void>;
}

/**
 * Start a mock provider. `respond(body, index)` gives the JSON for the
 * index-th request; a thrown error becomes a 500 with its message (so a test
 * sees it in the SDK's error instead of a hang).
 *
 * @example
 * const server = await startMockProvider((_body, i) => responses[i]);
 * const client = new Anthropic({ apiKey: 'test', baseURL: server.url, maxRetries: 0 });
 */
export async function startMockProvider(respond: (body: Record<string, unknown>, index: number, path: string) => unknown): Promise<MockProvider> {
  const requests: RecordedRequest[] = [];
  const sent: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const index = requests.length;
      requests.push({ method: req.method ?? '', path, text, body, headers: req.headers });
      let status = 200;
      let out: string;
      try {
        out = JSON.stringify(respond(body, index, path));
      } catch (error) {
        status = 500;
        out = JSON.stringify({ error: { message: error instanceof Error ? error.message : String(error) } });
      }
      sent.push(out);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

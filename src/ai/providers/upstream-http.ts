import { Agent as HttpAgent, type IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** An upstream's answer, read as a stream (an event stream) or whole (JSON). */
export interface UpstreamResponse {
  status: number;
  header(name: string): string | null;
  body: AsyncIterable<Uint8Array>;
  /** Stops reading (and frees the connection) without the rest of the body. */
  discard(): void;
}

/** POSTs a JSON body; rejects only when no answer came (refused, reset, aborted). */
export type UpstreamTransport = (url: string, body: string, headers: Record<string, string>, signal: AbortSignal) => Promise<UpstreamResponse>;

/**
 * POSTs over node:http(s) with keep-alive pools, one per provider. Node's `fetch` (undici with web
 * streams) cost about four times the CPU of a request here, which a gateway in front of a fast
 * upstream pays on every call (bench load 12).
 */
export function httpTransport(): { post: UpstreamTransport; destroy(): void } {
  const options = { keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: 60_000 };
  const agents = { http: new HttpAgent(options), https: new HttpsAgent(options) };
  const post: UpstreamTransport = (url, body, headers, signal) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const secure = target.protocol === 'https:';
      const payload = Buffer.from(body);
      const req = (secure ? httpsRequest : httpRequest)(target, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.length) },
        agent: secure ? agents.https : agents.http,
        signal,
      });
      req.once('error', reject);
      req.once('response', (res: IncomingMessage) =>
        resolve({
          status: res.statusCode ?? 0,
          header: (name) => {
            const value = res.headers[name.toLowerCase()];
            return Array.isArray(value) ? value.join(', ') : (value ?? null);
          },
          body: res,
          discard: () => res.destroy(),
        }),
      );
      req.end(payload);
    });
  return { post, destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

/** A transport on a fetch function (the unit specs' scripted answers). */
export function fetchTransport(fetchFn: typeof fetch): UpstreamTransport {
  return async (url, body, headers, signal) => {
    const response = await fetchFn(url, { method: 'POST', headers, body, signal });
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      body: response.body ?? (async function* () {})(),
      discard: () => void response.body?.cancel().catch(() => undefined),
    };
  };
}

/** The whole body as text (UTF-8). */
export async function readText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(Buffer.from(part));
  return Buffer.concat(parts).toString('utf8');
}

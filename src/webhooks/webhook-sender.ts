import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isBlockedAddress } from './url-guard.js';

/** Bytes of an answer kept (1 KiB). */
export const RESPONSE_BODY_LIMIT = 1024;
/** Bytes read: three more than kept, to see whether the last character kept is whole. */
const READ_LIMIT = RESPONSE_BODY_LIMIT + 3;

export interface SendResult {
  /** The receiver's status, absent when no answer came. */
  statusCode?: number;
  /** The first 1 KiB of the answer (`responseExcerpt`). */
  body?: string;
  /** The answer's `Retry-After` header, as sent. */
  retryAfter?: string;
  /** `timeout`, `blocked address`, or the connection / DNS error. */
  error?: string;
  durationMs: number;
}

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** The worker's keep-alive connection pools (`receiverAgents`). */
  agents: ReceiverAgents;
}

export interface ReceiverAgents {
  http: HttpAgent;
  https: HttpsAgent;
  /** Closes the pooled connections (shutdown). */
  destroy(): void;
}

/**
 * Keep-alive pools, per receiver origin (Node's agents key sockets by host and port): a worker
 * reuses its connections to a receiver instead of a TCP (and TLS) handshake per delivery. A pooled
 * socket stays connected to the address the SSRF guard accepted when it was opened.
 */
export function receiverAgents(maxSockets: number): ReceiverAgents {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: 30_000 };
  const http = new HttpAgent(options);
  const https = new HttpsAgent(options);
  return { http, https, destroy: () => (http.destroy(), https.destroy()) };
}

/**
 * One POST of a webhook: exact bytes, no redirects followed (a 3xx is just a non-2xx answer), the
 * whole exchange bounded by `timeoutMs`, and the socket connected only to an address the SSRF guard
 * accepted (the check runs in the request's own DNS lookup, so it is the address actually used).
 */
export function sendWebhook(url: string, body: string, headers: Record<string, string>, opts: SendOptions): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  return new Promise((resolve) => {
    let settled = false;
    // Set once the request is under way; `done` may run before that (a refused address) and clears it if set.
    // eslint-disable-next-line prefer-const
    let timer: NodeJS.Timeout | undefined;
    const done = (result: Omit<SendResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      done({ error: 'invalid url' });
      return;
    }
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    // An IP literal skips the lookup: check it here.
    if (!opts.allowPrivate && isIP(literal) && isBlockedAddress(literal)) {
      done({ error: 'blocked address' });
      return;
    }
    if (target.protocol !== 'https:' && !(opts.allowPrivate && target.protocol === 'http:')) {
      done({ error: 'blocked address' });
      return;
    }
    const payload = Buffer.from(body);
    const secure = target.protocol === 'https:';
    const send = secure ? httpsRequest : httpRequest;
    const req = send(target, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(payload.length), 'user-agent': 'platform-webhooks/1' },
      // Checked on every new connection (pooled ones were checked when opened).
      lookup: guardedLookup(opts.allowPrivate) as never,
      agent: secure ? opts.agents.https : opts.agents.http,
    });
    timer = setTimeout(() => {
      done({ error: 'timeout' });
      req.destroy(new Error('timeout'));
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const message =
        err.name === 'BlockedAddressError' || err.code === 'EBLOCKED' ? 'blocked address' : err.code ? `${err.code}: ${err.message}` : err.message;
      done({ error: message.slice(0, 500) });
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const retryAfter = res.headers['retry-after'];
      const finish = () => done({ statusCode: res.statusCode, body: responseExcerpt(Buffer.concat(chunks)), retryAfter });
      res.on('data', (chunk: Buffer) => {
        if (size < READ_LIMIT) chunks.push(chunk.subarray(0, READ_LIMIT - size));
        size += chunk.length;
        // More than we keep: stop reading (the connection is dropped, not returned to the pool).
        if (size >= READ_LIMIT) {
          finish();
          res.destroy();
        }
      });
      // Read to the end: the connection goes back to the pool.
      res.on('end', finish);
      res.on('error', finish);
      res.on('close', finish);
    });
    req.end(payload);
  });
}

/**
 * The first 1 KiB of an answer as text the database stores as is: cut before a character the limit
 * would split (no half UTF-8 sequence), NUL characters dropped (PostgreSQL text cannot hold them).
 * Bytes that are not UTF-8 read as U+FFFD.
 */
export function responseExcerpt(bytes: Buffer, limit = RESPONSE_BODY_LIMIT): string {
  let end = Math.min(bytes.length, limit);
  // A continuation byte (10xxxxxx) just past the cut: the character it belongs to started before; leave it out whole.
  for (let back = 0; end < bytes.length && end > 0 && back < 3 && (bytes[end] & 0xc0) === 0x80; back++) end--;
  if (end < Math.min(bytes.length, limit) && (bytes[end] & 0xc0) !== 0xc0) end = Math.min(bytes.length, limit); // not a lead byte: not UTF-8, cut at the limit
  return bytes.subarray(0, end).toString('utf8').replaceAll('\u0000', '');
}

import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy does with one request: forward it, answer 429 itself, or forward and then answer 500. */
export type FaultStep = 'ok' | '429' | '500-after';

export interface SeenRequest {
  at: number;
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface FaultProxy {
  url: string;
  /** One step per request, in order; 'ok' once the plan runs out. */
  plan: FaultStep[];
  seen: SeenRequest[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding']);

/**
 * A proxy in front of the server under test that injects the faults an SDK must survive:
 * '429' answers `429` with `Retry-After: 1` without forwarding; '500-after' lets the server do the
 * work and then throws its answer away for a 500 (the case where a blind retry would act twice).
 */
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const proxy: FaultProxy = { url: '', plan: [], seen: [], close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    proxy.seen.push({ at: Date.now(), method: req.method!, path: req.url!, headers: req.headers });
    const step = proxy.plan.shift() ?? 'ok';
    const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (step === '429') {
      return reply(429, { error: true, code: 429, message: 'Rate limit reached. Retry in 60 seconds.' }, { 'retry-after': '1' });
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k))) as Record<string, string>;
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(upstream + req.url, { method: req.method, headers, body });
    const payload = Buffer.from(await answer.arrayBuffer());
    if (step === '500-after') return reply(500, { error: true, code: 500, message: 'Internal error; try again later' });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise((resolve) => server.close(() => resolve()));
  return proxy;
}

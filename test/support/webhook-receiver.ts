import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type ReceiverMode = 'ok' | 'fail' | 'gone' | 'hang';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  at: number;
}

/** A real HTTP receiver on 127.0.0.1: each path answers as its mode says, and every request is recorded. */
export class Receiver {
  readonly received: Received[] = [];
  readonly modes = new Map<string, ReceiverMode>();
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const mode = this.modes.get(path) ?? 'ok';
        if (mode === 'hang') {
          this.hanging.add(res);
          return;
        }
        const status = mode === 'ok' ? 200 : mode === 'gone' ? 410 : 500;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(mode === 'fail' ? 'boom '.repeat(400) : 'thanks');
      });
    });
    this.server.on('connection', (s: Socket) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startTestApp, TestApp, TestAppOptions } from './test-app.js';

export type ReceiverMode = 'ok' | 'fail' | 'gone' | 'hang' | Answer;

/** A made-up answer: status, headers and body. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  raw: string;
  at: number;
  /** The sender's port: requests with the same one came over the same connection. */
  remotePort: number | undefined;
  /** With `verify`: whether the request's signatures checked out. */
  verified?: boolean;
}

/**
 * A real HTTP receiver on 127.0.0.1: each path answers as its mode says, and every request is recorded
 * on arrival. `answerAfterMs` makes it a slow receiver (deliveries still under way when a process dies).
 */
export class Receiver {
  readonly received: Received[] = [];
  readonly modes = new Map<string, ReceiverMode>();
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private server!: Server;
  url = '';

  constructor(
    private readonly options: {
      answerAfterMs?: number;
      /** Checks each request's signatures (as a real receiver does); one that fails is answered 400. */
      verify?: (request: Omit<Received, 'verified'>) => boolean;
    } = {},
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const received: Received = {
          path,
          headers: req.headers,
          raw: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
          remotePort: req.socket.remotePort,
        };
        if (this.options.verify) received.verified = this.options.verify(received);
        this.received.push(received);
        const mode = received.verified === false ? { status: 400, body: 'bad signature' } : (this.modes.get(path) ?? 'ok');
        if (typeof mode === 'object') {
          res.writeHead(mode.status, { 'content-type': 'text/plain', ...mode.headers }).end(mode.body ?? '');
          return;
        }
        if (mode === 'hang') {
          this.hanging.add(res);
          return;
        }
        const status = mode === 'ok' ? 200 : mode === 'gone' ? 410 : 500;
        const answer = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(mode === 'fail' ? 'boom '.repeat(400) : 'thanks');
        if (this.options.answerAfterMs) setTimeout(answer, this.options.answerAfterMs);
        else answer();
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

  /** Of these user ids, the ones no `user.created` delivery has brought yet. */
  missingUsers(ids: string[]): string[] {
    const seen = new Set(this.userCreatedIds());
    return ids.filter((id) => !seen.has(id));
  }

  /** The user ids of the `user.created` deliveries received, in order, duplicates included. */
  userCreatedIds(): string[] {
    return this.received
      .map((r) => JSON.parse(r.raw))
      .filter((body) => body.event === 'user.created')
      .map((body) => body.data.id);
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

/** The app and receiver of `appWithReceiver`: there once the describe block's `beforeAll` has run. */
export interface AppWithReceiver {
  readonly app: TestApp;
  readonly receiver: Receiver;
}

/**
 * A receiver, then a test app (the receiver's address is known before the app starts), for the describe block that
 * calls this: it registers the block's `beforeAll` that starts them and `afterAll` that stops them (call it before
 * the block's own `beforeAll`, which may then use them). The receiver stops first, so that the app's shutdown does
 * not wait on requests it holds (mode `hang`). The app retries after 50 ms (not seconds) and is not rate limited,
 * unless `options.env` says otherwise.
 */
export function appWithReceiver(options: TestAppOptions = {}): AppWithReceiver {
  let running: AppWithReceiver | undefined;
  beforeAll(async () => {
    const receiver = new Receiver();
    await receiver.start();
    try {
      running = { app: await startTestApp({ ...options, env: { WEBHOOK_RETRY_BASE_MS: '50', RATE_LIMIT_MAX: '100000', ...options.env } }), receiver };
    } catch (err) {
      await receiver.stop();
      throw err;
    }
  });
  afterAll(async () => {
    if (!running) return;
    await running.receiver.stop();
    await running.app.close();
  });
  const started = (): AppWithReceiver => {
    if (!running) throw new Error('appWithReceiver: the app and receiver start in the beforeAll it registers');
    return running;
  };
  return {
    get app() {
      return started().app;
    },
    get receiver() {
      return started().receiver;
    },
  };
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a real service (Redis), to take it away and give it back: `cut()` drops
 * every connection and refuses new ones, `restore()` lets them through again.
 */
export class TcpProxy {
  private server!: Server;
  private readonly sockets = new Set<Socket>();
  private cutOff = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.cutOff) {
        client.destroy();
        return;
      }
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  cut(): void {
    this.cutOff = true;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

import { createHash } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import type { CodeSource } from '../../src/functions/code-folder.js';
import type { FunctionDeployment, FunctionLogLine } from '../../src/functions/functions.types.js';
import type { InstancePool } from '../../src/functions/instance-pool.js';
import { resolveAll } from '../../src/webhooks/url-guard.js';

/** A deployment's code from file texts by path: the content-addressed shape the blob store gives. */
export function codeOf(files: Record<string, string>): CodeSource {
  const bytes = new Map<string, Buffer>();
  const list = Object.entries(files).map(([path, text]) => {
    const data = Buffer.from(text);
    const sha256 = createHash('sha256').update(data).digest('hex');
    bytes.set(sha256, data);
    return { path, sha256 };
  });
  return { files: list, read: async (sha256) => bytes.get(sha256) };
}

export function deploymentOf(id: string, files: Record<string, string>, env: Record<string, string> = {}, entry = '/_server/index.js'): FunctionDeployment {
  return { id, entry, code: codeOf(files), env };
}

/** Every log line the pool wrote, by deployment. */
export class LogCollector {
  readonly lines: Array<FunctionLogLine & { deploymentId: string }> = [];
  onLog(deploymentId: string, line: FunctionLogLine): void {
    this.lines.push({ deploymentId, ...line });
  }
  of(deploymentId: string, level?: string): string[] {
    return this.lines.filter((l) => l.deploymentId === deploymentId && (!level || l.level === level)).map((l) => l.message);
  }
}

/**
 * A site's front for the pool, as the hosting route will be: each request goes to `deploymentFor(req)`'s function
 * and its answer is streamed back. Answers on 127.0.0.1.
 */
export async function servePool(
  pool: InstancePool,
  deploymentFor: (req: IncomingMessage) => FunctionDeployment,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const answer = await pool.dispatch(deploymentFor(req), {
      method: req.method ?? 'GET',
      url: `http://${req.headers.host ?? 'app.test'}${req.url ?? '/'}`,
      rawHeaders: req.rawHeaders,
      body: req.method === 'GET' || req.method === 'HEAD' ? null : req,
      clientIp: req.socket.remoteAddress ?? '',
    });
    res.writeHead(answer.status, answer.headers);
    await pipeline(answer.body, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A GET or POST through the front: status, headers (raw pairs) and body text. */
export async function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<{ status: number; rawHeaders: string[]; headers: IncomingMessage['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A resolver on the test DNS server (test/support/dns-server.ts), in the shape the egress takes; `localhost` is
 * answered by the system's (its hosts file), as in production. No question leaves this machine.
 */
export function resolverOn(server: string) {
  const resolver = new Resolver();
  resolver.setServers([server]);
  return async (hostname: string) => {
    if (hostname === 'localhost') return resolveAll(hostname);
    const v4 = await resolver.resolve4(hostname).catch(() => [] as string[]);
    if (v4.length === 0) throw new Error(`${hostname} does not resolve`);
    return v4.map((address) => ({ address, family: 4 }));
  };
}

/** A TCP server on 127.0.0.1 that counts the connections it gets (a service no function may reach). */
export async function countingListener(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => res.end('secret')).on('connection', (socket: Socket) => {
    count++;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => count,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The egress's dialer for tests: records every connection it is asked for, and sends those to `standIns` to a local port instead. */
export function recordingDialer(standIns: Record<string, number>) {
  const dialled: string[] = [];
  return {
    dialled,
    dial: (address: string, port: number): Socket => {
      dialled.push(`${address}:${port}`);
      // Nothing leaves loopback: an address without a stand-in other than 127.0.0.1 gets a refused connection.
      if (standIns[address]) return connect({ host: '127.0.0.1', port: standIns[address] });
      return connect({ host: '127.0.0.1', port: address === '127.0.0.1' ? port : 1 });
    },
  };
}

/** A stand-in for the platform's API (PLATFORM_URL) and for a public server: what they were asked. */
export async function recordingServer(
  answer: string,
): Promise<{ url: string; seen: Array<{ url: string; headers: IncomingMessage['headers'] }>; close: () => Promise<void>; port: number }> {
  const seen: Array<{ url: string; headers: IncomingMessage['headers'] }> = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import { type LookupAddress } from 'node:dns';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, isIP, type AddressInfo, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { isBlockedAddress, resolveAll } from '../webhooks/url-guard.js';
import { flat, kept } from './function-headers.js';

/** The header the runner names the target in, and the one a refusal or failure comes back in. */
export const EGRESS_URL_HEADER = 'x-platform-egress-url';
export const EGRESS_ERROR_HEADER = 'x-platform-egress-error';

export interface EgressRules {
  /** Origins allowed whatever their address: `PLATFORM_URL`'s. */
  allowedOrigins: readonly string[];
  /** This machine's own addresses, refused besides the webhook sender's ranges (a public address of the node). */
  ownAddresses: ReadonlySet<string>;
  /** Every address of a name (default: the system's resolver, as webhook deliveries use). */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Opens the TCP connection to an address that was checked (default: net.connect; tests count them). */
  dial?: (address: string, port: number) => Socket;
  /** Time for the connection and each silence of the target. */
  timeoutMs: number;
}

const NOT_FORWARDED = new Set(['host', EGRESS_URL_HEADER]);

/**
 * The only way out of an instance: a small HTTP gateway of the platform's, one per instance, on a Unix socket (bind-
 * mounted into the bubblewrap sandbox, which has no network) or a port on 127.0.0.1 (the one address Deno's
 * --allow-net lets the instance reach without the sandbox). Each request names its target in a header; the gateway
 * resolves the name, refuses when any address is loopback, private, link-local, CGNAT, reserved (the webhook
 * sender's rules, src/webhooks/url-guard.ts) or this machine's own — `PLATFORM_URL`'s origin excepted — and
 * connects to the very address it checked (no second lookup a rebinding name could answer differently), over TLS
 * for https. Bodies stream both ways.
 */
export class EgressGateway {
  private readonly server: Server;
  private readonly resolve: (hostname: string) => Promise<LookupAddress[]>;
  private readonly dial: (address: string, port: number) => Socket;

  private constructor(
    private readonly rules: EgressRules,
    private readonly onProblem: (message: string) => void,
  ) {
    this.resolve = rules.resolve ?? resolveAll;
    this.dial = rules.dial ?? ((address, port) => connect({ host: address, port }));
    this.server = createServer((req, res) => void this.forward(req, res));
  }

  /** A gateway listening on a Unix socket at `path`, or on 127.0.0.1 at a free port. */
  static async listen(
    rules: EgressRules,
    where: { kind: 'unix'; path: string } | { kind: 'tcp' },
    onProblem: (message: string) => void,
  ): Promise<EgressGateway> {
    const gateway = new EgressGateway(rules, onProblem);
    await new Promise<void>((resolve, reject) => {
      gateway.server.once('error', reject);
      if (where.kind === 'unix') gateway.server.listen(where.path, resolve);
      else gateway.server.listen(0, '127.0.0.1', resolve);
    });
    return gateway;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = this.target(req.headers[EGRESS_URL_HEADER]);
    if (typeof target === 'string') return this.fail(req, res, target);
    const { url, port } = target;
    const host = url.hostname.replace(/^\[|\]$/g, '');
    let address: string;
    try {
      address = await this.checkedAddress(url, host);
    } catch (err) {
      return this.fail(req, res, (err as Error).message);
    }
    const https = url.protocol === 'https:';
    const upstream = httpRequest({
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: [...flat(kept(req.rawHeaders, NOT_FORWARDED)), 'Host', url.host],
      timeout: this.rules.timeoutMs,
      // The connection goes to the address that was checked, never to a name looked up again.
      createConnection: () => {
        const socket = this.dial(address, port);
        return https ? tlsConnect({ socket, host, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] }) : socket;
      },
    });
    upstream.on('timeout', () => upstream.destroy(new Error('the target did not answer in time')));
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (!res.headersSent) this.fail(req, res, `connection to ${url.host} failed: ${err.code ?? err.message}`, false);
      else res.destroy();
    });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, flat(kept(answer.rawHeaders, new Set())));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    // The instance went away before the answer was through (a request's 'close' only says its body was read).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** The target of a request, or why there is none. */
  private target(header: string | string[] | undefined): { url: URL; port: number } | string {
    let url: URL;
    try {
      url = new URL(String(header));
    } catch {
      return 'not an absolute URL';
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs are not supported`;
    if (url.username || url.password) return 'a URL with credentials is not supported';
    return { url, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80) };
  }

  /** The address to connect to: every address of the name checked, the first used. */
  private async checkedAddress(url: URL, host: string): Promise<string> {
    let addresses: LookupAddress[];
    try {
      const family = isIP(host);
      addresses = family ? [{ address: host, family }] : await this.resolve(host);
    } catch {
      throw new Error(`${host} does not resolve`);
    }
    if (addresses.length === 0) throw new Error(`${host} does not resolve`);
    if (this.rules.allowedOrigins.includes(url.origin)) return addresses[0].address;
    const refused = addresses.find((a) => isBlockedAddress(a.address) || this.rules.ownAddresses.has(a.address));
    if (refused) {
      throw new Error(
        `${host === refused.address ? host : `${host} (${refused.address})`} is a loopback, private, link-local or reserved address, or this platform's own`,
      );
    }
    return addresses[0].address;
  }

  private fail(req: IncomingMessage, res: ServerResponse, why: string, refused = true): void {
    req.resume();
    if (refused) this.onProblem(`fetch refused: ${why}`);
    res.writeHead(502, { [EGRESS_ERROR_HEADER]: why.replace(/[^\x20-\x7e]/g, '?'), 'content-length': '0', connection: 'close' });
    res.end();
  }
}

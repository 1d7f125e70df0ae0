import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/** TRUST_PROXY as the config gives it (Fastify's `trustProxy`). */
export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

/** Whether a connection's own peer (hop 0) is a trusted proxy: asked once per connection, not per request. */
const PEER_TRUSTED = Symbol('peerTrusted');

/**
 * `request.ip` as Fastify works it out (the same `@fastify/proxy-addr` and TRUST_PROXY), for a raw
 * request on the lean paths: the peer's address, or, where the peer is a trusted proxy, the first
 * address of `X-Forwarded-For` (from the right) that is not one. The peer's trust is asked once per
 * connection (a keep-alive connection from the proxy carries many requests), so a request through
 * one trusted proxy checks no address against TRUST_PROXY at all.
 */
export function clientIpFunction(trustProxy: TrustProxy): (req: IncomingMessage) => string {
  const trust = trustFunction(trustProxy);
  if (!trust) return (req) => req.socket.remoteAddress ?? '';
  return (req) => {
    const socket = req.socket as Socket & { [PEER_TRUSTED]?: boolean };
    const peer = socket.remoteAddress ?? '';
    if (!(socket[PEER_TRUSTED] ??= trust(peer, 0))) return peer;
    // [peer, the nearest forwarded hop, …, the farthest]: trusted hops are passed while there is one beyond.
    const hops = proxyAddr.all(req);
    let hop = 1;
    while (hop < hops.length - 1 && trust(hops[hop], hop)) hop++;
    return hops[Math.min(hop, hops.length - 1)];
  };
}

/** TRUST_PROXY as Fastify reads it (its `getTrustProxyFn`): undefined when nothing is trusted. */
function trustFunction(trustProxy: TrustProxy): ((address: string, hop: number) => boolean) | undefined {
  if (trustProxy === false) return undefined;
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === 'function') return trustProxy;
  return proxyAddr.compile(trustProxy.split(',').map((it) => it.trim()));
}

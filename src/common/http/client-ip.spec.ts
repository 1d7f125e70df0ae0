import proxyAddr from '@fastify/proxy-addr';
import type { IncomingMessage } from 'node:http';
import { clientIpFunction, type TrustProxy } from './client-ip.js';

describe('clientIpFunction', () => {
  const request = (socket: { remoteAddress?: string }, forwardedFor?: string) =>
    ({ socket, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;
  /** What Fastify's request.ip is for the same setting (its getTrustProxyFn, then proxy-addr). */
  const fastifyIp = (trustProxy: TrustProxy, req: IncomingMessage) => {
    if (trustProxy === false) return req.socket.remoteAddress;
    const trust =
      trustProxy === true ? () => true : typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy.split(',').map((it) => it.trim()));
    return proxyAddr(req, trust);
  };

  const settings: TrustProxy[] = [false, true, '127.0.0.1', 'loopback, 10.0.0.0/8', '::1', (_address, hop) => hop < 2];
  const peers = ['127.0.0.1', '203.0.113.9', '::1', '10.1.2.3'];
  const headers = [undefined, '', '198.51.100.7', ' 198.51.100.7 ', '198.51.100.7, 10.0.0.5', '2001:db8::1, 10.0.0.5,127.0.0.1', 'junk, 10.0.0.5', ' , '];

  it('answers as Fastify does for every setting, peer and X-Forwarded-For', () => {
    for (const setting of settings) {
      const clientIp = clientIpFunction(setting);
      for (const peer of peers) {
        for (const header of headers) {
          const req = request({ remoteAddress: peer }, header);
          expect({ setting: String(setting), peer, header, ip: clientIp(req) }).toEqual({
            setting: String(setting),
            peer,
            header,
            ip: fastifyIp(setting, req),
          });
        }
      }
    }
  });

  it("asks once per connection whether its peer is trusted, and reads each request's own header", () => {
    const asked: Array<[string, number]> = [];
    const clientIp = clientIpFunction((address, hop) => (asked.push([address, hop]), address === '127.0.0.1'));
    const socket = { remoteAddress: '127.0.0.1' };
    expect(clientIp(request(socket, '198.51.100.1'))).toBe('198.51.100.1');
    expect(clientIp(request(socket, '198.51.100.2'))).toBe('198.51.100.2');
    expect(clientIp(request(socket))).toBe('127.0.0.1');
    expect(asked).toEqual([['127.0.0.1', 0]]);
    expect(clientIp(request({ remoteAddress: '203.0.113.1' }, '198.51.100.1'))).toBe('203.0.113.1');
  });
});

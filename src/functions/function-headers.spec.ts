import { toFunctionHeaders, toVisitorHeaders } from './function-headers.js';

describe('function headers', () => {
  it('passes the visitor’s headers without hop-by-hop ones, those Connection names, and the platform’s; sets x-real-ip', () => {
    const raw = [
      'Host',
      'app.test',
      'Connection',
      'keep-alive, X-Hop',
      'X-Hop',
      '1',
      'Keep-Alive',
      'timeout=5',
      'TE',
      'trailers',
      'Transfer-Encoding',
      'chunked',
      'Upgrade',
      'websocket',
      'Proxy-Authorization',
      'Basic x',
      'X-Forwarded-For',
      '6.6.6.6',
      'X-Real-IP',
      '6.6.6.6',
      'Forwarded',
      'for=6.6.6.6',
      'X-Request-Id',
      'abc',
      'X-Platform-Url',
      'http://evil.test/',
      'Cookie',
      'a=1',
      'Accept',
      'text/html',
      'Accept',
      'application/json',
    ];
    expect(toFunctionHeaders(raw, '203.0.113.7')).toEqual([
      ['Host', 'app.test'],
      ['Cookie', 'a=1'],
      ['Accept', 'text/html'],
      ['Accept', 'application/json'],
      ['x-real-ip', '203.0.113.7'],
    ]);
  });

  it('passes the function’s answer with every Set-Cookie, without hop-by-hop and platform headers', () => {
    const raw = [
      'Set-Cookie',
      'a=1',
      'Set-Cookie',
      'b=2',
      'Connection',
      'close, X-Drop',
      'X-Drop',
      '1',
      'X-Request-Id',
      'f',
      'X-Platform-Runner-Error',
      'n',
      'Content-Type',
      'text/plain',
      'Transfer-Encoding',
      'chunked',
    ];
    expect(toVisitorHeaders(raw)).toEqual([
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['Content-Type', 'text/plain'],
    ]);
  });
});

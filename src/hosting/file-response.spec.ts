import { fileKindOf } from './content-types.js';
import type { CachedFile } from './file-cache.js';
import { fileAnswer, parseRange, servedFileOf } from './file-response.js';

describe('fileAnswer', () => {
  const sha = 'ab'.repeat(32);
  const js = servedFileOf('/assets/app.3f9a1c2b.js', sha, fileKindOf('/assets/app.3f9a1c2b.js'), 'acc_1');
  const bytes: CachedFile = { identity: Buffer.from('0123456789'), gzip: Buffer.from('gz'), br: Buffer.from('br') };

  it('picks brotli, then gzip, by Accept-Encoding, and says it varies', () => {
    expect(fileAnswer(js, bytes, { 'accept-encoding': 'gzip, deflate, br' })).toMatchObject({
      status: 200,
      body: bytes.br,
      headers: { 'content-encoding': 'br', etag: `"${sha}-br"`, vary: 'Accept-Encoding' },
    });
    expect(fileAnswer(js, bytes, { 'accept-encoding': 'gzip' })).toMatchObject({
      body: bytes.gzip,
      headers: { 'content-encoding': 'gzip', etag: `"${sha}-gz"` },
    });
    expect(fileAnswer(js, bytes, { 'accept-encoding': 'br;q=0, gzip' }).headers['content-encoding']).toBe('gzip');
    expect(fileAnswer(js, bytes, { 'accept-encoding': '*;q=0' }).headers['content-encoding']).toBeUndefined();
    expect(fileAnswer(js, bytes, { 'accept-encoding': '*' }).headers['content-encoding']).toBe('br');
    const plain = fileAnswer(js, bytes, {});
    expect(plain).toMatchObject({ status: 200, body: bytes.identity, headers: { etag: `"${sha}"`, 'x-content-type-options': 'nosniff' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
  });

  it('sends no Vary for a file kept uncompressed', () => {
    expect(fileAnswer(js, { identity: bytes.identity, gzip: null, br: null }, { 'accept-encoding': 'br' }).headers.vary).toBeUndefined();
    // Its copies still to come: the answer as stored varies already (a shared cache must not keep it for every client).
    expect(fileAnswer(js, { identity: bytes.identity, gzip: null, br: null, pending: true }, { 'accept-encoding': 'br' }).headers.vary).toBe('Accept-Encoding');
  });

  it('caches by kind: HTML revalidates, hashed names are immutable, others an hour', () => {
    expect(fileAnswer(js, bytes, {}).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const html = servedFileOf('/index.html', sha, fileKindOf('/index.html'), 'acc_1');
    expect(fileAnswer(html, bytes, {}).headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    const png = servedFileOf('/logo.png', sha, fileKindOf('/logo.png'), 'acc_1');
    expect(fileAnswer(png, bytes, {}).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 304 to If-None-Match naming any encoding of these bytes', () => {
    expect(fileAnswer(js, bytes, { 'if-none-match': `"${sha}-gz"`, 'accept-encoding': 'br' })).toMatchObject({
      status: 304,
      body: null,
      headers: { etag: `"${sha}-gz"` },
    });
    expect(fileAnswer(js, bytes, { 'if-none-match': `W/"${sha}", "other"` }).status).toBe(304);
    expect(fileAnswer(js, bytes, { 'if-none-match': '*' }).status).toBe(304);
    expect(fileAnswer(js, bytes, { 'if-none-match': '"something-else"' }).status).toBe(200);
  });

  it('serves one range of the identity bytes, 416 past the end, the whole file for several or a stale If-Range', () => {
    expect(fileAnswer(js, bytes, { range: 'bytes=2-4', 'accept-encoding': 'br' })).toMatchObject({
      status: 206,
      body: Buffer.from('234'),
      headers: { 'content-range': 'bytes 2-4/10', etag: `"${sha}"` },
    });
    expect(fileAnswer(js, bytes, { range: 'bytes=-3' }).body).toEqual(Buffer.from('789'));
    expect(fileAnswer(js, bytes, { range: 'bytes=8-' }).body).toEqual(Buffer.from('89'));
    expect(fileAnswer(js, bytes, { range: 'bytes=10-' })).toMatchObject({ status: 416, headers: { 'content-range': 'bytes */10' } });
    expect(fileAnswer(js, bytes, { range: 'bytes=0-1,4-5' }).status).toBe(200);
    expect(fileAnswer(js, bytes, { range: 'bytes=2-4', 'if-range': '"old"' }).status).toBe(200);
  });

  it('reads ranges', () => {
    expect(parseRange('bytes=0-0', 5)).toEqual([0, 0]);
    expect(parseRange('bytes=3-100', 5)).toEqual([3, 4]);
    expect(parseRange('bytes=-0', 5)).toBe('unsatisfiable');
    expect(parseRange('bytes=4-2', 5)).toBeUndefined();
    expect(parseRange('items=0-1', 5)).toBeUndefined();
    expect(parseRange('bytes=-', 5)).toBeUndefined();
  });
});

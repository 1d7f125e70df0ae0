import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DISK_TIER_MIN_BYTES } from '../src/hosting/file-cache.js';
import { SiteServer } from '../src/hosting/site-server.js';
import { ApiClient, newAccountClient } from './support/api-client.js';
import { sha256, uploadAll } from './support/files.js';
import { siteRequest } from './support/site-http.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

/** A script past the disk tier's threshold: lines that differ, so it compresses as real code does. */
const SCRIPT = scriptOf(DISK_TIER_MIN_BYTES + 40_000);
const SMALL = Buffer.from('export const small = 1;\n'.repeat(100));
const BLOB = randomBytes(DISK_TIER_MIN_BYTES + 1000);

describe(`site files on the disk tier: streamed with the headers of a file in memory (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let host: string;
  const site = (path: string, headers: Record<string, string> = {}, method = 'GET') => siteRequest(app.url, host, path, { method, headers });

  beforeAll(async () => {
    // Its subject is the disk tier's answers, not the workers' priority (site-compression's): at nice 19 on a CI machine
    // busy with other spec files, a brotli copy at quality 11 could wait minutes for a core.
    app = await startTestApp({ env: { SITE_COMPRESS_NICE: '0' } });
    dev = await newAccountClient(app);
    const { appId } = (await dev.post('/v1/apps', { name: 'Large files' }).expect(201)).body as { appId: string };
    const files = await uploadAll(app, dev, { '/index.html': '<h1>Large</h1>', '/big.js': SCRIPT, '/small.js': SMALL, '/blob.bin': BLOB });
    const { url } = (await dev.post('/v1/apps/deploy', { appId, env: 'production', files }).expect(200)).body as { url: string };
    host = new URL(url).host;
  });
  afterAll(() => app.close());

  it('answers as stored, gzip and brotli, with Content-Length, ETag, Vary and the same headers as a file in memory', async () => {
    const identity = await site('/big.js');
    expect(identity.status).toBe(200);
    expect(SCRIPT.length).toBeGreaterThan(DISK_TIER_MIN_BYTES);
    expect(app.server.app.get(SiteServer).files.disk!.size.files).toBe(1);
    expect(identity.body.equals(SCRIPT)).toBe(true);
    expect(identity.headers['content-length']).toBe(String(SCRIPT.length));
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.etag).toBe(`"${sha256(SCRIPT)}"`);
    expect(identity.headers['transfer-encoding']).toBeUndefined();
    const small = await site('/small.js');
    const named = (headers: Record<string, unknown>) => Object.keys(headers).sort();
    expect(named(identity.headers)).toEqual(named(small.headers));
    for (const name of ['content-type', 'cache-control', 'vary', 'accept-ranges', 'x-content-type-options', 'x-robots-tag'])
      expect([name, identity.headers[name]]).toEqual([name, small.headers[name]]);

    // Its copies are made by the compression workers: as stored until gzip lands.
    let gzip = await site('/big.js', { 'accept-encoding': 'gzip' });
    await until(async () => (gzip = await site('/big.js', { 'accept-encoding': 'gzip' })).headers['content-encoding'] === 'gzip', 30_000, 'the gzip copy');
    expect(gzip.headers.etag).toBe(`"${sha256(SCRIPT)}-gz"`);
    expect(gzip.headers['content-length']).toBe(String(gzip.body.length));
    expect(gunzipSync(gzip.body).equals(SCRIPT)).toBe(true);
    expect(gzip.body.length).toBeLessThan(SCRIPT.length / 2);

    // The brotli copy lands in the background; gzip serves until then.
    let br = await site('/big.js', { 'accept-encoding': 'br, gzip' });
    await until(async () => (br = await site('/big.js', { 'accept-encoding': 'br, gzip' })).headers['content-encoding'] === 'br', 30_000, 'the brotli copy');
    expect(br.headers.etag).toBe(`"${sha256(SCRIPT)}-br"`);
    expect(br.headers['content-length']).toBe(String(br.body.length));
    expect(brotliDecompressSync(br.body).equals(SCRIPT)).toBe(true);
  });

  it('answers HEAD, If-None-Match and a Range from the disk copy', async () => {
    const head = await site('/big.js', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect((await site('/big.js', { 'if-none-match': `"${sha256(SCRIPT)}-gz"`, 'accept-encoding': 'gzip' })).status).toBe(304);

    const part = await site('/big.js', { range: 'bytes=1000-1999', 'accept-encoding': 'gzip' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${SCRIPT.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.equals(SCRIPT.subarray(1000, 2000))).toBe(true);
    const tail = await site('/big.js', { range: 'bytes=-10' });
    expect(tail.body.equals(SCRIPT.subarray(SCRIPT.length - 10))).toBe(true);
    expect((await site('/big.js', { range: `bytes=${SCRIPT.length}-` })).status).toBe(416);
  });

  it('streams a file that is not compressed as stored, the same bytes each time', async () => {
    for (let i = 0; i < 2; i++) {
      const blob = await site('/blob.bin', { 'accept-encoding': 'gzip, br' });
      expect(blob.status).toBe(200);
      expect(blob.headers['content-encoding']).toBeUndefined();
      expect(blob.headers.vary).toBeUndefined();
      expect(blob.headers['content-length']).toBe(String(BLOB.length));
      expect(blob.body.equals(BLOB)).toBe(true);
    }
    // Both large files are on disk, none of their bytes in memory (which holds the small script).
    const files = app.server.app.get(SiteServer).files;
    await files.settled();
    expect(files.disk!.size.files).toBe(2);
    expect(files.disk!.size.bytes).toBeGreaterThan(SCRIPT.length + BLOB.length);
    expect(files.size.bytes).toBeLessThan(SMALL.length * 2);
  });
});

function scriptOf(bytes: number): Buffer {
  const lines: string[] = [];
  for (let i = 0, length = 0; length < bytes; i++) {
    lines.push(`export const v${i} = ${(i * 7919) % 100_003};\n`);
    length += lines[i].length;
  }
  return Buffer.from(lines.join(''));
}

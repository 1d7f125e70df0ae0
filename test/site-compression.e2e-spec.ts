import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SiteServer } from '../src/hosting/site-server.js';
import { ApiClient, newAccountClient } from './support/api-client.js';
import { uploadAll } from './support/files.js';
import { PORTAL_PASSWORD, portalSession } from './support/portal-session.js';
import { type SiteAnswer, siteRequest } from './support/site-http.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const MIB = 1024 * 1024;

/** A script of `bytes` whose lines differ (it compresses as real code does, and costs brotli as much). */
function scriptOf(seed: number, bytes: number): Buffer {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `export function f${seed}_${i}(a, b) { return a * ${(i * 7919 + seed) % 100_003} + b.${['x', 'y', 'z'][i % 3]}${i % 97}; }\n`;
    lines.push(line);
    size += line.length;
  }
  return Buffer.from(lines.join('')).subarray(0, bytes);
}

/** The bytes of an answer, decoded as its Content-Encoding says. */
function decoded(answer: SiteAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  return encoding === 'br' ? brotliDecompressSync(answer.body) : encoding === 'gzip' ? gunzipSync(answer.body) : answer.body;
}

/**
 * Issue 45 H1: six anonymous GETs (`Accept-Encoding: br`) of six distinct 4 MiB text files used a
 * minute of CPU in libuv's pool — the one password hashing and file reads wait in — and stalled
 * everyone for 15–20 s. Compression is now the pool's workers' (one here: the cores but one).
 */
describe(`compression under a burst of large files: others answered within 1 s (${target})`, () => {
  let app: TestApp;
  let attacker: ApiClient;
  let other: ApiClient;
  let attackHost: string;
  let otherHost: string;
  const FILES = Array.from({ length: 6 }, (_, i) => scriptOf(i, 4 * MIB));
  const OTHER = scriptOf(99, 40_000);

  const deploy = async (client: ApiClient, name: string, files: Record<string, string | Buffer>) => {
    const { appId } = (await client.post('/v1/apps', { name }).expect(201)).body as { appId: string };
    const manifest = await uploadAll(app, client, files);
    const { url } = (await client.post('/v1/apps/deploy', { appId, env: 'production', files: manifest }).expect(200)).body as { url: string };
    return new URL(url).host;
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { SITE_COMPRESS_WORKERS: '1' } });
    attacker = await newAccountClient(app);
    other = await newAccountClient(app);
    const files: Record<string, Buffer | string> = { '/index.html': '<h1>Big</h1>' };
    FILES.forEach((bytes, i) => (files[`/big${i}.js`] = bytes));
    attackHost = await deploy(attacker, 'Large scripts', files);
    otherHost = await deploy(other, 'Another tenant', { '/index.html': '<h1>Other</h1>', '/app.js': OTHER });
  }, 180_000);
  afterAll(() => app.close());

  it('answers another tenant’s first GET and a portal sign-in within 1 s while six 4 MiB files are compressed, and every answer decodes to its file', async () => {
    const email = `compression-${Date.now()}@example.com`;
    await portalSession(app, email);
    const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
      const started = performance.now();
      const result = await work();
      return [result, performance.now() - started];
    };
    const signInForm = async () => {
      const login = await app.http().get('/portal/login').expect(200);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(login.text)![1];
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      return () => app.http().post('/portal/login').set('cookie', cookie).type('form').send({ _csrf: csrf, email, password: PORTAL_PASSWORD });
    };
    // A sign-in's own time on this machine now (its password hash is CPU work too): the burst may add less than 1 s to it.
    const [calm, calmMs] = await timed(await signInForm());
    expect(calm.status).toBe(303);
    const signInDuringBurst = await signInForm();

    // The burst: answered at once (as stored, or gzip, while brotli waits), each decoding to its file.
    const answers = await Promise.all(FILES.map((_, i) => siteRequest(app.url, attackHost, `/big${i}.js`, { headers: { 'accept-encoding': 'br' } })));
    answers.forEach((answer, i) => {
      expect(answer.status).toBe(200);
      expect(answer.headers['content-length']).toBe(String(answer.body.length));
      expect(answer.headers.vary).toBe('Accept-Encoding');
      expect(decoded(answer).equals(FILES[i])).toBe(true);
    });

    // Their compressions are under way now (where the report measured 20.7 s and 14.8 s): others are answered within 1 s.
    const [[page, pageMs], [signIn, signInMs]] = await Promise.all([
      timed(() => siteRequest(app.url, otherHost, '/app.js', { headers: { 'accept-encoding': 'gzip' } })),
      timed(signInDuringBurst),
    ]);
    expect(page.status).toBe(200);
    expect(decoded(page).equals(OTHER)).toBe(true);
    expect(signIn.status).toBe(303);
    expect(String(signIn.headers['set-cookie'])).toContain('portal_session=');
    expect(pageMs).toBeLessThan(1000);
    // Within 1 s of a calm sign-in (on an idle machine, within 1 s outright: 0.2–0.6 s with the burst): the whole suite shares CI's 2 cores.
    expect(signInMs - calmMs).toBeLessThan(1000);
    // Measured while the worker was compressing.
    expect(app.server.app.get(SiteServer).files.compression.pool.load.running).toBe(1);

    // The copies land in the workers, one at a time: then brotli is served, decoding to the file.
    for (let i = 0; i < FILES.length; i++) {
      let br = await siteRequest(app.url, attackHost, `/big${i}.js`, { headers: { 'accept-encoding': 'br' } });
      await until(
        async () => (br = await siteRequest(app.url, attackHost, `/big${i}.js`, { headers: { 'accept-encoding': 'br' } })).headers['content-encoding'] === 'br',
        // The pool's thread runs at the lowest priority: with the whole suite on CI's 2 cores, its copies come slowly.
        240_000,
        `the brotli copy of big${i}.js`,
      );
      expect(br.body.length).toBeLessThan(FILES[i].length / 4);
      expect(brotliDecompressSync(br.body).equals(FILES[i])).toBe(true);
    }
  }, 600_000);

  it('never compresses a file over SITE_COMPRESS_MAX_BYTES on the fly', async () => {
    const small = await startTestApp({ env: { SITE_COMPRESS_MAX_BYTES: String(1 * MIB) } });
    try {
      const client = await newAccountClient(small);
      const big = scriptOf(7, 2 * MIB);
      const { appId } = (await client.post('/v1/apps', { name: 'Too large' }).expect(201)).body as { appId: string };
      const manifest = await uploadAll(small, client, { '/index.html': '<h1>x</h1>', '/big.js': big });
      const { url } = (await client.post('/v1/apps/deploy', { appId, env: 'production', files: manifest }).expect(200)).body as { url: string };
      const host = new URL(url).host;
      await siteRequest(small.url, host, '/big.js', { headers: { 'accept-encoding': 'br, gzip' } });
      await small.server.app.get(SiteServer).files.settled();
      const again = await siteRequest(small.url, host, '/big.js', { headers: { 'accept-encoding': 'br, gzip' } });
      expect(again.headers['content-encoding']).toBeUndefined();
      expect(again.headers.vary).toBeUndefined();
      expect(again.body.equals(big)).toBe(true);
    } finally {
      await small.close();
    }
  }, 120_000);
});

import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { BandwidthMeter } from '../src/billing/bandwidth-meter.js';
import { SiteServer } from '../src/hosting/site-server.js';
import { SignupTokens } from '../src/sites/signup-token.js';
import { SignupService } from '../src/sites/signup.service.js';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { sha256, uploadAll } from './support/files.js';
import { rawRequest } from './support/raw-http.js';
import { readBundle, SiteAnswer, siteRequest } from './support/site-http.js';
import request from 'supertest';
import { ChildServer, startChildServer } from './support/child-server.js';
import { describeUnless, UNLESS_REDIS } from './support/skips.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const SPA = readBundle(join(import.meta.dirname, 'fixtures', 'spa'));
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const CONFIG = {
  cleanUrls: true,
  spa: true,
  redirects: [
    { source: '/old/:slug', destination: '/notes/:slug', status: 301 },
    { source: '/docs/*', destination: 'https://docs.example.com/*', status: 302 },
    { source: '/go-home', destination: '/', status: 307 },
  ],
  headers: [
    { source: '/assets/*', headers: { 'X-Frame-Options': 'DENY', 'Cache-Control': 'public, max-age=600' } },
    { source: '/images/:name', headers: { 'Access-Control-Allow-Origin': '*' } },
  ],
};

describe(`site origins: a deployment's own files (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  let slug: string;
  let deploymentId: string;
  /** `dep-….localhost:<port>`: the Host of the deployment's own origin. */
  let host: string;
  let port: string;

  const site = (path: string, options: Parameters<typeof siteRequest>[3] = {}, onHost = host) => siteRequest(app.url, onHost, path, options);
  const labelOf = (id: string) => id.toLowerCase().replace('_', '-');
  const deployBundle = async (client: ApiClient, files: Record<string, Buffer | string>, extra: Record<string, unknown> = {}, onApp = appId) => {
    const manifest = await uploadAll(app, client, files);
    return (await client.post('/v1/apps/deploy', { appId: onApp, env: 'production', files: manifest, ...extra }).expect(200)).body as {
      deploymentId: string;
      url: string;
    };
  };
  const expectFile = (answer: SiteAnswer, path: string) => {
    expect(answer.status).toBe(200);
    expect(answer.body.equals(SPA[path])).toBe(true);
    expect(answer.headers.etag).toBe(`"${sha256(SPA[path])}"`);
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    port = new URL(app.url).port;
    dev = await newAccountClient(app);
    const created = (await dev.post('/v1/apps', { name: 'Pocket Notes', slug: 'pocket-notes' }).expect(201)).body;
    appId = created.appId;
    slug = created.slug;
    const deployed = await deployBundle(dev, SPA, { config: CONFIG });
    deploymentId = deployed.deploymentId;
    host = `${labelOf(deploymentId)}.localhost:${port}`;
    expect(deployed.url).toBe(`http://${host}/`);
  });
  afterAll(() => app.close());

  describe('files', () => {
    it('serves each file with its type, caching, ETag, nosniff and noindex', async () => {
      const kinds: Array<[string, string, string]> = [
        ['/index.html', 'text/html; charset=utf-8', 'public, max-age=0, must-revalidate'],
        ['/assets/app.9d1e7c55.css', 'text/css; charset=utf-8', 'public, max-age=600'], // config.headers overrides the platform's
        ['/images/logo.png', 'image/png', 'public, max-age=3600'],
        ['/favicon.svg', 'image/svg+xml', 'public, max-age=3600'],
        ['/sw.js', 'text/javascript; charset=utf-8', 'public, max-age=3600'],
        ['/site.webmanifest', 'application/manifest+json; charset=utf-8', 'public, max-age=3600'],
        ['/404.html', 'text/html; charset=utf-8', 'public, max-age=0, must-revalidate'],
      ];
      for (const [path, type, cacheControl] of kinds) {
        const answer = await site(path);
        expectFile(answer, path);
        expect([path, answer.headers['content-type'], answer.headers['cache-control']]).toEqual([path, type, cacheControl]);
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
        expect(answer.headers['x-robots-tag']).toBe('noindex');
        expect(answer.headers['accept-ranges']).toBe('bytes');
        expect(answer.headers['set-cookie']).toBeUndefined();
      }
      // A hashed name is immutable (unless config.headers says otherwise, as it does for /assets/*: see above).
      const other = await deployBundle(dev, { '/index.html': SPA['/index.html'], '/app.3f9a1c2b.js': SPA['/assets/app.3f9a1c2b.js'] }, {}, appId);
      const js = await site('/app.3f9a1c2b.js', {}, `${labelOf(other.deploymentId)}.localhost:${port}`);
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const root = await site('/');
      expectFile(root, '/index.html');
      expect(root.headers['content-length']).toBe(String(SPA['/index.html'].length));
    });

    it('compresses once per file with brotli or gzip as asked (Vary: Accept-Encoding), never already-compressed types', async () => {
      const path = '/assets/app.3f9a1c2b.js';
      // The first answer waits for gzip only; brotli is made in the background, once, and then served.
      await site(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      await app.server.app.get(SiteServer).files.settled();
      const br = await site(path, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('Accept-Encoding');
      expect(br.headers.etag).toBe(`"${sha256(SPA[path])}-br"`);
      expect(brotliDecompressSync(br.body).equals(SPA[path])).toBe(true);
      expect(br.body.length).toBeLessThan(SPA[path].length);
      const gzip = await site(path, { headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(SPA[path])).toBe(true);
      // The same compressed bytes again (made once, kept).
      expect((await site(path, { headers: { 'accept-encoding': 'br' } })).body.equals(br.body)).toBe(true);
      const identity = await site(path);
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body.equals(SPA[path])).toBe(true);
      const png = await site('/images/logo.png', { headers: { 'accept-encoding': 'br, gzip' } });
      expect(png.headers['content-encoding']).toBeUndefined();
      expect(png.headers.vary).toBeUndefined();
      expect(png.body.equals(SPA['/images/logo.png'])).toBe(true);
    });

    it('answers 304 to a matching If-None-Match, HEAD with the headers alone, and single ranges (206/416) of the identity bytes', async () => {
      const path = '/assets/app.3f9a1c2b.js';
      const etag = `"${sha256(SPA[path])}"`;
      const notModified = await site(path, { headers: { 'if-none-match': etag } });
      expect(notModified.status).toBe(304);
      expect(notModified.body.length).toBe(0);
      expect(notModified.headers.etag).toBe(etag);
      expect((await site(path, { headers: { 'if-none-match': `"${sha256(SPA[path])}-br"`, 'accept-encoding': 'br' } })).status).toBe(304);
      expect((await site(path, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);

      const head = await site(path, { method: 'HEAD', headers: { 'accept-encoding': 'br' } });
      const get = await site(path, { headers: { 'accept-encoding': 'br' } });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expect(head.headers['content-length']).toBe(String(get.body.length));
      expect(head.headers.etag).toBe(get.headers.etag);

      const ranged = await site(path, { headers: { range: 'bytes=3-12', 'accept-encoding': 'br, gzip' } });
      expect(ranged.status).toBe(206);
      expect(ranged.headers['content-range']).toBe(`bytes 3-12/${SPA[path].length}`);
      expect(ranged.headers['content-encoding']).toBeUndefined();
      expect(ranged.body.equals(SPA[path].subarray(3, 13))).toBe(true);
      const suffix = await site(path, { headers: { range: 'bytes=-5' } });
      expect(suffix.body.equals(SPA[path].subarray(-5))).toBe(true);
      const beyond = await site(path, { headers: { range: `bytes=${SPA[path].length}-` } });
      expect(beyond.status).toBe(416);
      expect(beyond.headers['content-range']).toBe(`bytes */${SPA[path].length}`);
      expect((await site(path, { headers: { range: 'bytes=0-1,5-6' } })).status).toBe(200);
    });
  });

  describe('routing', () => {
    it('serves /a/ as /a/index.html, /about from /about.html (cleanUrls), unknown paths without an extension as /index.html (spa)', async () => {
      expectFile(await site('/about'), '/about.html');
      expectFile(await site('/about.html'), '/about.html');
      for (const path of ['/notes/42', '/notes/42?from=mail', '/deep/client/route/']) expectFile(await site(path), '/index.html');
      const withFolder = await deployBundle(dev, { '/index.html': 'root', '/guide/index.html': '<h1>Guide</h1>' });
      const onIt = `${labelOf(withFolder.deploymentId)}.localhost:${port}`;
      expect((await site('/guide/', {}, onIt)).text).toBe('<h1>Guide</h1>');
      const bare = await site('/guide?x=1', {}, onIt);
      expect([bare.status, bare.headers.location]).toEqual([301, '/guide/?x=1']);
    });

    it('answers unknown paths with the bundle’s /404.html (status 404), else a plain 404 page', async () => {
      for (const path of ['/missing.js', '/assets/nothing.css', '/images/none.png']) {
        const answer = await site(path);
        expect([path, answer.status]).toEqual([path, 404]);
        expect(answer.body.equals(SPA['/404.html'])).toBe(true);
      }
      const without = await deployBundle(dev, { '/index.html': '<h1>Only</h1>' });
      const answer = await site('/nothing', { headers: { accept: 'text/html' } }, `${labelOf(without.deploymentId)}.localhost:${port}`);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain('Nothing here');
      expect(answer.headers['x-robots-tag']).toBe('noindex');
    });

    it('follows config.redirects (:name, a final * splat, the status asked) and config.headers after the platform’s', async () => {
      const moved = await site('/old/42?ref=x');
      expect([moved.status, moved.headers.location]).toEqual([301, '/notes/42?ref=x']);
      const splat = await site('/docs/setup/install');
      expect([splat.status, splat.headers.location]).toEqual([302, 'https://docs.example.com/setup/install']);
      const home = await site('/go-home');
      expect([home.status, home.headers.location]).toEqual([307, '/']);
      const asset = await site('/assets/app.9d1e7c55.css');
      expect(asset.headers['x-frame-options']).toBe('DENY');
      const image = await site('/images/logo.png');
      expect(image.headers['access-control-allow-origin']).toBe('*');
      expect(image.headers['x-frame-options']).toBeUndefined();
    });

    it('answers / with the deployment’s landing page when the bundle has no /index.html', async () => {
      const noIndex = await deployBundle(dev, { '/app.js': 'console.log(1)' });
      const answer = await site('/', { headers: { accept: 'text/html' } }, `${labelOf(noIndex.deploymentId)}.localhost:${port}`);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('<h1');
      expect(answer.text).toContain('Pocket Notes');
      expect(answer.text).toContain('action="/signup"');
      expect(answer.headers['content-security-policy']).toContain("default-src 'none'");
      expect(answer.headers['x-robots-tag']).toBe('noindex');
    });
  });

  describe('addresses', () => {
    it('sends the API’s addresses of a deployment with files to its own origin (308), never serving its files there', async () => {
      const own = await app.http().get(`/sites/${deploymentId}/assets/app.3f9a1c2b.js?v=2`).redirects(0).expect(308);
      expect(own.headers.location).toBe(`http://${host}/assets/app.3f9a1c2b.js?v=2`);
      expect(own.text).not.toContain('indexedDB');
      const page = await app.http().get(`/sites/${deploymentId}/`).redirects(0).expect(308);
      expect(page.headers.location).toBe(`http://${host}/`);
      // The form posts keep their method through a 308.
      const post = await app.http().post(`/sites/${deploymentId}/signup`).type('form').send({ email: 'x@example.com' }).redirects(0).expect(308);
      expect(post.headers.location).toBe(`http://${host}/signup`);
      const alias = await app.http().get(`/sites/${appId}/production/about`).redirects(0).expect(308);
      expect(alias.headers.location).toBe(`http://production--${slug}.localhost:${port}/about`);
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId }).expect(200);
      const published = await app.http().get(`/p/${slug}/notes/7`).redirects(0).expect(308);
      expect(published.headers.location).toBe(`http://${slug}.localhost:${port}/notes/7`);
    });

    it('serves the environment’s newest deployment at <env>--<slug> and the published one at <slug>, following deploys, publishing and deletion at once', async () => {
      const env = `production--${slug}.localhost:${port}`;
      const pub = `${slug}.localhost:${port}`;
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId }).expect(200);
      expectFile(await site('/about', {}, pub), '/about.html');
      expect((await site('/about', {}, pub)).headers['x-robots-tag']).toBeUndefined();
      expect((await site('/', {}, env)).headers['x-robots-tag']).toBe('noindex');

      // A new deploy: the environment follows at once (its host was cached), the deployment's own origin and the public one do not.
      const next = await deployBundle(dev, { ...SPA, '/about.html': '<h1>About, version 2</h1>' }, { config: CONFIG });
      expect((await site('/about', {}, env)).text).toBe('<h1>About, version 2</h1>');
      expectFile(await site('/about', {}, pub), '/about.html');
      expectFile(await site('/about'), '/about.html');
      // Publishing moves the public origin at once; unpublishing takes it down (410); a landing-page deploy published shows its page.
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: next.deploymentId }).expect(200);
      expect((await site('/about', {}, pub)).text).toBe('<h1>About, version 2</h1>');
      await dev.post(`/v1/apps/${appId}/unpublish`, {}).expect(200);
      expect((await site('/', { headers: { accept: 'text/html' } }, pub)).status).toBe(410);
      const landing = (await dev.post('/v1/apps/deploy', { appId, env: 'staging' }).expect(200)).body.deploymentId as string;
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: landing }).expect(200);
      const page = await site('/', { headers: { accept: 'text/html' } }, pub);
      expect([page.status, page.headers['x-deployment-id']]).toEqual([200, landing]);
      expect(page.text).toContain('action="/signup"');
      expect((await site('/about', { headers: { accept: 'text/html' } }, pub)).status).toBe(404);
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId }).expect(200);
    });

    it('reads Host carefully: case, a trailing dot and the port do not matter; a name of two labels, another domain or an unknown label is no site', async () => {
      const label = labelOf(deploymentId);
      for (const variant of [`${label.toUpperCase()}.LOCALHOST:${port}`, `${label}.localhost.:${port}`, `${label}.localhost`, `${label}.localhost:1`]) {
        expectFile(await site('/about', {}, variant), '/about.html');
      }
      for (const nobody of [
        `a.${label}.localhost:${port}`,
        `dep-00000000000000000000000000.localhost:${port}`,
        `no-such-app.localhost:${port}`,
        `x_y.localhost:${port}`,
      ]) {
        const answer = await site('/', { headers: { accept: 'text/html' } }, nobody);
        expect([nobody, answer.status]).toEqual([nobody, 404]);
        expect(answer.text).not.toContain('Pocket Notes');
      }
      // Another host is the API's, whatever its name.
      expect((await site('/health/live', {}, 'evil.example')).status).toBe(200);
      expect((await site('/health/live', {}, `${label}.localhost.evil.example`)).status).toBe(200);
    });

    it('never answers the API, the portal or the docs on a site origin', async () => {
      for (const path of ['/v1/apps', '/portal/login', '/docs', '/metrics', '/health/live', '/collect', '/js/analytics.js']) {
        const answer = await site(path, { headers: { authorization: `Bearer ${dev.apiKey}`, accept: 'application/json' } });
        // The SPA answers its own pages (index.html), or the bundle's 404: site content only.
        expect([path, answer.headers['content-type']]).toEqual([path, 'text/html; charset=utf-8']);
        expect([SPA['/index.html'], SPA['/404.html']].some((b) => b.equals(answer.body))).toBe(true);
      }
      const noSpa = await deployBundle(dev, { '/index.html': 'plain' });
      const other = `${labelOf(noSpa.deploymentId)}.localhost:${port}`;
      for (const path of ['/v1/apps', '/portal', '/docs'])
        expect((await site(path, { headers: { authorization: `Bearer ${dev.apiKey}` } }, other)).status).toBe(404);
    });

    it('serves another account’s site only from that account’s files', async () => {
      const stranger = await newAccountClient(app);
      const theirApp = (await stranger.post('/v1/apps', { name: 'Theirs' }).expect(201)).body.appId as string;
      const theirs = await deployBundle(stranger, { '/index.html': '<h1>Theirs</h1>' }, {}, theirApp);
      const theirHost = `${labelOf(theirs.deploymentId)}.localhost:${port}`;
      expect((await site('/', {}, theirHost)).text).toBe('<h1>Theirs</h1>');
      expect((await site('/assets/app.3f9a1c2b.js', {}, theirHost)).body.equals(SPA['/assets/app.3f9a1c2b.js'])).toBe(false);
      // Even a manifest naming our file's hash (the deploy refuses it: files_missing) would read their account's blob, which does not exist.
      const mine = sha256(SPA['/about.html']);
      await stranger
        .post('/v1/apps/deploy', { appId: theirApp, env: 'production', files: { '/about.html': mine } })
        .expect(400)
        .expect((res) => expect(res.body.reason).toBe('files_missing'));
      const forged = (
        await stranger.post('/v1/apps/deploy', { appId: theirApp, env: 'forged', files: await uploadAll(app, stranger, { '/x.html': 'x' }) }).expect(200)
      ).body.deploymentId as string;
      await app.query(`UPDATE deployments SET files = $1 WHERE id = $2`, [JSON.stringify({ '/about.html': mine }), forged]);
      const answer = await site('/about.html', {}, `${labelOf(forged)}.localhost:${port}`);
      expect(answer.status).not.toBe(200);
      expect(answer.text).not.toContain('About Pocket Notes');
    });
  });

  describe('what a request cannot do', () => {
    it('refuses traversal and encoded separators, and never reads outside the manifest', async () => {
      const cases: Array<[string, number]> = [
        ['/%2e%2e/%2e%2e/etc/passwd', 404],
        ['/assets/..%2f..%2fpackage.json', 404],
        ['/assets%2fapp.3f9a1c2b.js', 404],
        ['/assets/%2E%2E/about.html', 404],
        ['/a%00.html', 400],
        ['/%5c..%5cabout.html', 400],
        ['/%zz', 400],
        ['/about%0d%0aSet-Cookie:%20a=b', 400],
      ];
      for (const [path, status] of cases) {
        const answer = await site(path, { headers: { accept: 'text/html' } });
        expect([path, answer.status]).toEqual([path, status]);
        expect(answer.headers['set-cookie']).toBeUndefined();
      }
      const raw = await rawRequest(app.url, `GET /..\\about.html HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(raw.status).toBe(400);
      const absolute = await rawRequest(app.url, `GET http://evil.example/about.html HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(absolute.status).toBe(400);
    });

    it('never lets a file shadow the platform’s paths, nor a stored header set a cookie', async () => {
      const js = await uploadAll(app, dev, { '/x.js': 'alert("shadow")' });
      const refused = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { '/_platform/analytics.js': js['/x.js'] } }).expect(400);
      expect(refused.body.message).toContain('/_platform/analytics.js');
      // Rows written some other way are served the same: the platform's paths first.
      const forged = (await dev.post('/v1/apps/deploy', { appId, env: 'forged', files: js }).expect(200)).body.deploymentId as string;
      const shadows = Object.fromEntries(
        ['/signup', '/thanks', '/_platform/analytics.js', '/_platform/collect', '/_platform/other.js'].map((p) => [p, js['/x.js']]),
      );
      await app.query(`UPDATE deployments SET files = $1, config = $2 WHERE id = $3`, [
        JSON.stringify({ ...shadows, '/x.js': js['/x.js'] }),
        JSON.stringify({ headers: [{ source: '/*', headers: { 'Set-Cookie': 'session=stolen', 'X-Content-Type-Options': 'sniff', 'X-Extra': 'kept' } }] }),
        forged,
      ]);
      const on = `${labelOf(forged)}.localhost:${port}`;
      for (const path of Object.keys(shadows)) {
        const answer = await site(path, { headers: { accept: 'text/html' } }, on);
        expect([path, answer.text.includes('alert("shadow")')]).toEqual([path, false]);
      }
      const tracker = await site('/_platform/analytics.js', {}, on);
      expect(tracker.text).toContain('/_platform/collect');
      const file = await site('/x.js', {}, on);
      expect(file.text).toBe('alert("shadow")');
      expect(file.headers['set-cookie']).toBeUndefined();
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['x-extra']).toBe('kept');
    });

    it('serves what could sniff into HTML as its declared type, with nosniff', async () => {
      const html = '<html><script>alert(document.domain)</script></html>';
      const sniffy = await deployBundle(dev, { '/index.html': 'x', '/notes.txt': html, '/upload.bin': html, '/README': html });
      const on = `${labelOf(sniffy.deploymentId)}.localhost:${port}`;
      const expected: Record<string, string> = {
        '/notes.txt': 'text/plain; charset=utf-8',
        '/upload.bin': 'application/octet-stream',
        '/README': 'application/octet-stream',
      };
      for (const [path, type] of Object.entries(expected)) {
        const answer = await site(path, {}, on);
        expect([path, answer.headers['content-type'], answer.headers['x-content-type-options']]).toEqual([path, type, 'nosniff']);
      }
      expect((await site('/index.html', { method: 'POST' }, on)).status).toBe(405);
    });
  });

  describe('the platform’s paths on a site origin', () => {
    it('signs a visitor up through /signup with a token from /_platform/signup-token, then shows /thanks', async () => {
      const token = await site('/_platform/signup-token');
      expect(token.status).toBe(200);
      expect(token.headers['cache-control']).toBe('no-store');
      expect(token.headers['access-control-allow-origin']).toBeUndefined();
      const issued = JSON.parse(token.text) as { token: string };
      expect(app.server.app.get(SignupTokens).read(issued.token, Date.now() + 3000)).toEqual({ deploymentId });
      const aged = app.server.app.get(SignupTokens).issue(deploymentId, Date.now() - 5000);
      const answer = await site('/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': FIREFOX, 'x-forwarded-for': '198.51.100.7' },
        body: new URLSearchParams({ email: 'visitor@example.com', website: '', token: aged }).toString(),
      });
      expect([answer.status, answer.headers.location]).toEqual([303, '/thanks']);
      await app.server.app.get(SignupService).settled();
      const users = await app.query<{ app_id: string }>(`SELECT app_id FROM users WHERE email = 'visitor@example.com'`);
      expect(users).toEqual([{ app_id: appId }]);
      const thanks = await site('/thanks', { headers: { accept: 'text/html' } });
      expect(thanks.status).toBe(200);
      expect(thanks.text).toContain('You signed up to Pocket Notes');
      const invalid = await site('/signup', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'not-an-address', website: '', token: aged }).toString(),
      });
      expect(invalid.status).toBe(400);
      expect(invalid.text).toContain('name@example.com');
      expect((await site('/signup', { headers: { accept: 'text/html' } })).status).toBe(404);
    });

    it('serves the tracker, takes its beacons for this site’s app at /_platform/collect, and counts HTML documents only', async () => {
      const tracker = await site('/_platform/analytics.js');
      expect(tracker.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(tracker.text).toContain('"/_platform/collect"');
      expect(tracker.text.length).toBeLessThan(1024);
      const visitor = { 'user-agent': FIREFOX, 'x-forwarded-for': '198.51.100.42' };
      const before = await pageviews();
      for (const path of ['/', '/notes/9', '/about']) expect((await site(path, { headers: visitor })).status).toBe(200);
      // A navigation a service worker forwards (Chromium sends it as mode navigate, destination empty).
      await site('/notes/11', { headers: { ...visitor, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'empty' } });
      expect((await site('/', { headers: { ...visitor, 'if-none-match': `"${sha256(SPA['/index.html'])}"` } })).status).toBe(304);
      // Not pageviews: files that are not HTML, HEAD, a 404, a script's fetch of a page, a prefetch, a bot.
      await site('/assets/app.3f9a1c2b.js', { headers: visitor });
      await site('/images/logo.png', { headers: visitor });
      await site('/', { method: 'HEAD', headers: visitor });
      await site('/missing.png', { headers: visitor });
      await site('/about', { headers: { ...visitor, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' } });
      await site('/about', { headers: { ...visitor, 'sec-purpose': 'prefetch' } });
      await site('/about', { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)' } });
      // The tracker's beacon for a client-side navigation (a body naming another app counts for this one).
      const beacon = await site('/_platform/collect', {
        method: 'POST',
        headers: { ...visitor, 'content-type': 'text/plain;charset=UTF-8' },
        body: JSON.stringify({ appId: 'app_someone_else', name: 'pageview', url: `http://${host}/notes/10`, referrer: null, screenWidth: 1280 }),
      });
      expect(beacon.status).toBe(202);
      expect(beacon.headers['access-control-allow-origin']).toBeUndefined();
      const bad = await site('/_platform/collect', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'not json' });
      expect(bad.status).toBe(400);
      const added = (await pageviews()).slice(before.length);
      expect(added.map((r) => r.pathname).sort()).toEqual(['/', '/', '/about', '/notes/10', '/notes/11', '/notes/9']);
      expect(new Set(added.map((r) => r.app_id))).toEqual(new Set([appId]));
    });
  });

  it('meters bandwidth.bytes: the body bytes of an account’s site answers', async () => {
    const counter = await newAccountClient(app);
    const theirApp = (await counter.post('/v1/apps', { name: 'Metered' }).expect(201)).body.appId as string;
    const big = Buffer.from('const metered = true;\n'.repeat(500));
    const deployed = await deployBundle(counter, { '/index.html': '<h1>Metered</h1>', '/big.js': big, '/photo.png': SPA['/images/logo.png'] }, {}, theirApp);
    const on = `${labelOf(deployed.deploymentId)}.localhost:${port}`;
    const answers = [
      await site('/', {}, on),
      await site('/big.js', { headers: { 'accept-encoding': 'gzip' } }, on),
      await site('/big.js', {}, on),
      await site('/photo.png', { headers: { range: 'bytes=0-9' } }, on),
      await site('/big.js', { method: 'HEAD' }, on),
      await site('/', { headers: { 'if-none-match': `"${sha256('<h1>Metered</h1>')}"` } }, on),
      await site('/nothing', { headers: { accept: 'text/html' } }, on),
    ];
    const sent = answers.reduce((sum, a) => sum + a.body.length, 0);
    expect(answers[1].body.length).toBeLessThan(big.length);
    await app.server.app.get(BandwidthMeter).flush();
    const rows = await app.query<{ total: string }>(
      `SELECT COALESCE(sum(quantity), 0) AS total FROM usage_records WHERE account_id = $1 AND meter = 'bandwidth.bytes'`,
      [counter.accountId],
    );
    expect(Number(rows[0].total)).toBe(sent);
    const billing = (await counter.get('/v1/billing').expect(200)).body as {
      usage: Array<{ meter: string; used: number; included: number | null; hard: boolean }>;
    };
    expect(billing.usage.find((u) => u.meter === 'bandwidth.bytes')).toMatchObject({ used: sent, included: 10 * 2 ** 30, hard: false });
  });

  async function pageviews() {
    await app.server.app.get(AnalyticsBuffer).flush();
    return app.query<{ pathname: string; app_id: string }>(
      `SELECT pathname, app_id FROM analytics_events WHERE app_id = $1 AND name = 'pageview' ORDER BY occurred_at, pathname`,
      [appId],
    );
  }
});

describeUnless(UNLESS_REDIS)('site origins on two instances (postgres + redis, child processes)', () => {
  let env: Record<string, string>;
  const children: ChildServer[] = [];

  beforeAll(async () => {
    env = { ...(await freshEnvironment()), ...NO_RATE_LIMIT, SITES_DOMAIN: 'sites.test' };
  });
  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop()));
    await dropFreshResources(env);
  });

  it('evicts a cached host on the other instance as soon as a deploy, an unpublish or a deletion commits (Redis pub/sub)', async () => {
    const [a, b] = await Promise.all([startChildServer(env), startChildServer(env)]);
    children.push(a, b);
    const account = (
      await request(a.url).post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'two@example.com' }).expect(201)
    ).body as { apiKey: string };
    const auth = { authorization: `Bearer ${account.apiKey}` };
    const created = (await request(a.url).post('/v1/apps').set(auth).send({ name: 'Two', slug: 'two-instances' }).expect(201)).body as { appId: string };
    const deploy = async (about: string) => {
      const files: Record<string, string> = {};
      for (const [path, body] of Object.entries({ '/index.html': '<h1>Two</h1>', '/about.html': about })) {
        await request(a.url)
          .put(`/v1/files/${sha256(body)}`)
          .set(auth)
          .set('content-type', 'application/octet-stream')
          .send(Buffer.from(body));
        files[path] = sha256(body);
      }
      return (await request(a.url).post('/v1/apps/deploy').set(auth).send({ appId: created.appId, env: 'production', files }).expect(200)).body as {
        deploymentId: string;
      };
    };
    const first = await deploy('version 1');
    await request(a.url).post(`/v1/apps/${created.appId}/publish`).set(auth).send({}).expect(200);
    const onB = (host: string, path = '/about.html') => siteRequest(b.url, host, path, { headers: { accept: 'text/html' } });
    // B reads and keeps all three names (its cache holds them for 30 s).
    expect((await onB('production--two-instances.sites.test')).text).toBe('version 1');
    expect((await onB('two-instances.sites.test')).text).toBe('version 1');
    expect((await onB(`${first.deploymentId.toLowerCase().replace('_', '-')}.sites.test`)).text).toBe('version 1');

    const within = async (what: string, check: () => Promise<boolean>) => {
      const started = Date.now();
      await until(check, 5_000, what);
      expect(Date.now() - started).toBeLessThan(5_000);
    };
    await deploy('version 2');
    await within('the environment moves on B', async () => (await onB('production--two-instances.sites.test')).text === 'version 2');
    expect((await onB('two-instances.sites.test')).text).toBe('version 1');
    await request(a.url).post(`/v1/apps/${created.appId}/unpublish`).set(auth).send({}).expect(200);
    await within('the public name is taken down on B', async () => (await onB('two-instances.sites.test')).status === 410);
    await request(a.url).delete(`/v1/apps/${created.appId}`).set(auth).expect(204);
    await within('the deployment is gone on B', async () => (await onB(`${first.deploymentId.toLowerCase().replace('_', '-')}.sites.test`)).status === 404);
  });
});

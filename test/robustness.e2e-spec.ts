import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlatformRouteConfig } from '../src/app.setup.js';
import { Public } from '../src/common/http/public.decorator.js';
import { DOCS_SECURITY_HEADERS } from '../src/docs/swagger.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { describeInBrowser, openBrowser } from './support/browser.js';
import { RawConnection, rawRequest } from './support/raw-http.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';

const MiB = 1024 * 1024;

/** A route that raises its limits as a deploy with a `files` manifest will (20,000 files, 8 MiB), and one that does not. */
const MANIFEST_ROUTE: PlatformRouteConfig = { bodyLimit: 8 * MiB, jsonLimits: { maxKeys: 20_000, maxValues: 20_010 } };

@Public()
@Controller('test-manifests')
class ManifestController {
  @Post('large')
  @HttpCode(200)
  @RouteConfig(MANIFEST_ROUTE)
  large(@Body() body: { files?: Record<string, string> }): { files: number } {
    return { files: Object.keys(body?.files ?? {}).length };
  }

  @Post('default')
  @HttpCode(200)
  small(@Body() body: { files?: Record<string, string> }): { files: number } {
    return { files: Object.keys(body?.files ?? {}).length };
  }
}

@Module({ controllers: [ManifestController] })
class ManifestModule {}

/** `{"files":{"/assets/file-00000.3f9a1c2b.js":"<64 hex>",…}}`: about 100 bytes an entry. */
const manifest = (entries: number, pad = 0) =>
  JSON.stringify({
    files: Object.fromEntries(Array.from({ length: entries }, (_, i) => [`/assets/file-${String(i).padStart(5, '0')}.3f9a1c2b.js`, 'a'.repeat(64 + pad)])),
  });

/** An object of `keys` unknown keys beside a valid event: the reviewer's 70,000 keys in 760 KB. */
const wideEvent = (keys: number) => {
  const event: Record<string, unknown> = { appId: 'app_nope', name: 'pageview', url: 'https://x.example/' };
  for (let i = 0; i < keys; i++) event[`k${i}`] = 0;
  return JSON.stringify(event);
};

const expectTooComplex = (res: { status: number; body: Record<string, unknown>; text: string }, limit: string) => {
  expect(res.status).toBe(400);
  expectErrorBody(res.body, 400, limit);
  expect(res.body.reason).toBe('json_too_complex');
  // A sentence, not an echo of the body (the reviewer's 70,000 keys came back as a 4.8 MB list).
  expect(res.text.length).toBeLessThan(300);
};

describe(`robustness: what any client may send (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  const receiver = new Receiver();

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({ env: NO_RATE_LIMIT, modules: [ManifestModule] });
    dev = await newAccountClient(app);
  });
  afterAll(async () => {
    await app.close();
    await receiver.stop();
  });

  const postJson = (path: string, text: string, contentType = 'application/json') =>
    app.http().post(path).set('authorization', `Bearer ${dev.apiKey}`).set('content-type', contentType).send(text);
  const postManifest = (route: 'large' | 'default', text: string) => postJson(`/v1/test-manifests/${route}`, text);

  describe('bounded parsing', () => {
    it("answers the reviewer's bodies with a short 400 naming the limit, on every JSON route and for JSON sent as text", async () => {
      const wide = wideEvent(70_000);
      expect(wide.length).toBeGreaterThan(700_000);
      for (const [path, type] of [
        ['/collect', 'application/json'],
        ['/collect', 'text/plain;charset=UTF-8'],
        ['/v1/apps', 'application/json'],
        ['/v1/webhook-endpoints', 'application/json'],
      ]) {
        expectTooComplex(await postJson(path, wide, type), 'an object has more than 1,000 keys');
      }
      // 200,000 `[`, closed or not: a 400, never a 500 "Maximum call stack size exceeded".
      for (const deep of ['['.repeat(200_000), '['.repeat(100_000) + ']'.repeat(100_000), `{"name":${'{"a":'.repeat(40)}1${'}'.repeat(41)}`]) {
        expectTooComplex(await postJson('/v1/apps', deep), 'deeper than 32 levels');
        expectTooComplex(await postJson('/collect', deep, 'text/plain'), 'deeper than 32 levels');
      }
      expectTooComplex(await postJson('/v1/apps', JSON.stringify({ name: 'x', tags: Array(10_000).fill(0) })), 'more than 10,000 values');
      expect(await app.query('SELECT count(*)::int AS n FROM apps WHERE account_id = $1', [dev.accountId])).toEqual([{ n: 0 }]);
    });

    it('checks the limits on the raw text, before the body is parsed or validated', async () => {
      // The first 1,001 keys cross the limit; what follows is not even JSON, and is never looked at.
      const head = wideEvent(1001).slice(0, -1);
      expectTooComplex(await postJson('/collect', `${head},${'"tail": [[[ not json '.repeat(20_000)}`), '1,000 keys');
      // Within the limits, a body that is not JSON is a 400 of its own, which echoes nothing of it either.
      const invalid = await postJson('/v1/apps', '{"name": "secret-value", ');
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ error: true, code: 400, reason: 'invalid_json' });
      expect(invalid.text).not.toContain('secret-value');
    });

    it('takes a body right at the limits', async () => {
      const at = await postManifest('default', manifest(1000)).expect(200);
      expect(at.body).toEqual({ files: 1000 });
      expectTooComplex(await postManifest('default', manifest(1001)), '1,000 keys');
    });

    it('answers other requests while a hostile body arrives and is refused', async () => {
      const body = Buffer.from(wideEvent(70_000));
      const hostile = new RawConnection(app.url);
      await hostile.write(`POST /collect HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`);
      await hostile.write(body.subarray(0, body.length - 1));
      // The server holds 760 KB of it and waits for the last byte: everyone else is answered meanwhile.
      await app.http().get('/health/live').expect(200);
      expect((await dev.get('/v1/apps').expect(200)).body.data).toEqual([]);
      // Ten at once, with requests of others in between: each refused on its own, the others answered.
      const answers = await Promise.all([
        hostile.write(body.subarray(body.length - 1)).then(() => hostile.answer()),
        ...Array.from({ length: 10 }, (_, i) => (i % 2 ? postJson('/collect', body.toString(), 'text/plain') : app.http().get('/health/live'))),
      ]);
      const [first, ...rest] = answers;
      expect(first).toMatchObject({ status: 400, headers: expect.objectContaining({ 'content-type': 'application/json; charset=utf-8' }) });
      expect(JSON.parse((first as { body: string }).body)).toMatchObject({ error: true, code: 400, reason: 'json_too_complex' });
      rest.forEach((res, i) => (i % 2 ? expectTooComplex(res, '1,000 keys') : expect(res.status).toBe(200)));
    });

    it('lets a route raise its body and JSON limits (a deploy manifest of 20,000 files in up to 8 MiB)', async () => {
      const full = manifest(20_000);
      expect(full.length).toBeGreaterThan(MiB);
      expect((await postManifest('large', full).expect(200)).body).toEqual({ files: 20_000 });
      // The same body on a route that keeps the defaults: over its 1 MiB before any JSON is counted.
      const small = await postManifest('default', full);
      expect(small.status).toBe(413);
      expect(small.body).toMatchObject({ error: true, code: 413, reason: 'body_too_large', message: 'Request body is larger than 1 MiB' });
      expectTooComplex(await postManifest('large', manifest(20_001)), 'more than 20,000 keys');
      // Depth is not raised: later walks of the value recurse that deep.
      expectTooComplex(await postManifest('large', '['.repeat(33)), '32 levels');
      const huge = manifest(20_000, 320);
      expect(huge.length).toBeGreaterThan(8 * MiB);
      const tooLarge = await postManifest('large', huge);
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toMatchObject({ reason: 'body_too_large', message: 'Request body is larger than 8 MiB' });
      expect(tooLarge.text).not.toContain('/assets/');
    });
  });

  it('lists at most 20 validation messages and says how many more there were', async () => {
    const unknown = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`field${i}`, i]));
    const res = await dev.post('/v1/apps', unknown).expect(400);
    expect(res.body.reason).toBe('invalid_parameter');
    expect(res.body.details).toHaveLength(20);
    expect(res.body.details[0]).toBe('property field0 should not exist');
    // 900 unknown fields and the two problems of the missing name.
    expect(res.body.message).toBe(`${(res.body.details as string[]).join('; ')}; and 882 more`);
    expect(res.text.length).toBeLessThan(2000);
  });

  describe("the HTTP server's own client errors, in the envelope", () => {
    const expectEnvelope = (answer: { status: number; headers: Record<string, string>; body: string }, status: number, reason: string) => {
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(answer.body)).toEqual({ error: true, code: status, message: expect.any(String), reason });
    };

    it('answers oversized headers 431, malformed request lines and conflicting lengths 400', async () => {
      const tooLarge = await rawRequest(app.url, `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Filler: ${'secret'.repeat(4000)}\r\n\r\n`);
      expectEnvelope(tooLarge, 431, 'headers_too_large');
      expect(tooLarge.body).not.toContain('secret');
      expectEnvelope(await rawRequest(app.url, 'GARBAGE\r\n\r\n'), 400, 'malformed_request');
      expectEnvelope(await rawRequest(app.url, 'GET /v1/apps\x01secret HTTP/1.1\r\nHost: x\r\n\r\n'), 400, 'malformed_request');
      const conflicting = await rawRequest(
        app.url,
        'POST /v1/apps HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      );
      expectEnvelope(conflicting, 400, 'malformed_request');
      expect(JSON.parse(conflicting.body).message).toContain('Content-Length and Transfer-Encoding');
      // The server is fine afterwards.
      await app.http().get('/health/live').expect(200);
    });

    it("answers Fastify's body parser errors in the envelope with a reason, echoing nothing of the body", async () => {
      const tooLarge = await postJson('/v1/apps', JSON.stringify({ name: 'secret'.repeat(200_000) }));
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toMatchObject({ error: true, code: 413, reason: 'body_too_large', message: 'Request body is larger than 1 MiB' });
      expect(tooLarge.text).not.toContain('secret');
      // A +json type gets past the media type check and finds no parser: Fastify's own 415.
      const noParser = await postJson('/v1/apps', '{"name":"secret"}', 'application/vnd.secret+json');
      expect(noParser.status).toBe(415);
      expect(noParser.body).toMatchObject({ error: true, code: 415, reason: 'unsupported_media_type' });
      expect(noParser.text).not.toContain('secret');
    });
  });

  describe('empty bodies', () => {
    it("runs the README's unpublish step as written: content-type: application/json and no body", async () => {
      const { appId } = (await dev.post('/v1/apps', { name: 'Empty bodies' }).expect(201)).body;
      await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
      // `curl -s -X POST …/publish -H "authorization: Bearer $KEY" -H 'content-type: application/json'`, byte for byte.
      const curl = (path: string) =>
        rawRequest(
          app.url,
          `POST ${path} HTTP/1.1\r\nHost: ${new URL(app.url).host}\r\nUser-Agent: curl/8.14.1\r\nAccept: */*\r\n` +
            `authorization: Bearer ${dev.apiKey}\r\ncontent-type: application/json\r\n\r\n`,
        );
      const published = await curl(`/v1/apps/${appId}/publish`);
      expect(published.status).toBe(200);
      expect(JSON.parse(published.body)).toMatchObject({ appId, publishState: 'published' });
      const unpublished = await curl(`/v1/apps/${appId}/unpublish`);
      expect(unpublished.status).toBe(200);
      expect(JSON.parse(unpublished.body)).toMatchObject({ appId, publishState: 'unpublished' });
      expect(await app.query('SELECT publish_state, published_deployment_id FROM apps WHERE id = $1', [appId])).toEqual([
        { publish_state: 'unpublished', published_deployment_id: null },
      ]);
    });

    it('takes an empty JSON body on every POST whose body is optional, and names the missing fields where one is needed', async () => {
      const empty = (path: string) => app.http().post(path).set('authorization', `Bearer ${dev.apiKey}`).set('content-type', 'application/json').send('');
      const { id } = (await dev.post('/v1/webhook-endpoints', { url: `${receiver.url}/empty` }).expect(201)).body;
      expect((await empty(`/v1/webhook-endpoints/${id}/rotate-secret`).expect(200)).body.secret).toMatch(/^whsec_/);
      const delivery = (await empty(`/v1/webhook-endpoints/${id}/test`).expect(202)).body;
      expect(delivery).toMatchObject({ id: expect.stringMatching(/^del_/), event: 'webhook.test' });
      await until(
        async () => (await dev.get(`/v1/webhook-endpoints/${id}/deliveries`).expect(200)).body.data[0].status === 'succeeded',
        15_000,
        'the test delivery',
      );
      expect((await empty(`/v1/webhook-deliveries/${delivery.id}/retry`).expect(202)).body.id).toBe(delivery.id);

      const missing = await empty('/v1/apps').expect(400);
      expect(missing.body).toMatchObject({ reason: 'invalid_parameter', message: expect.stringContaining('name must be') });
      const missingAgain = await app.http().post('/v1/apps').set('authorization', `Bearer ${dev.apiKey}`).set('content-type', 'application/json');
      expect(missingAgain.body).toEqual({ ...missing.body, requestId: missingAgain.headers['x-request-id'] });
    });
  });

  it('treats a cookie that does not decode as absent, on every portal page', async () => {
    for (const path of ['/portal/', '/portal/apps', '/portal/login']) {
      const plain = await app.http().get(path).redirects(0);
      const malformed = await app.http().get(path).set('cookie', 'portal_session=%; portal_pre=%zz').redirects(0);
      expect(malformed.status).toBe(plain.status);
      expect(malformed.status).toBeLessThan(500);
      expect(malformed.headers.location).toBe(plain.headers.location);
    }
    // The sign-in page makes a fresh pre-session cookie in place of the broken one.
    const login = await app.http().get('/portal/login').set('cookie', 'portal_pre=%').expect(200);
    expect(String(login.headers['set-cookie'])).toMatch(/portal_pre=[A-Za-z0-9_-]{24}/);
  });

  it('serves /docs and its files with a CSP that forbids framing', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/openapi.json']) {
      const res = await app.http().get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describeInBrowser(`Swagger UI under its CSP (${target})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('renders and calls the API with no CSP violation, and refuses to be framed', async () => {
    const session = await openBrowser();
    try {
      const { page } = session;
      const problems: string[] = [];
      // Every console error but the 401 that "Try it out" below asks for (a CSP violation is one).
      page.on('console', (m) => m.type() === 'error' && !m.text().includes('status of 401') && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      const loaded = await page.goto(`${app.url}/docs`);
      expect(loaded?.headers()['content-security-policy']).toBe(DOCS_SECURITY_HEADERS['content-security-policy']);
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock').count()).toBeGreaterThan(30);
      // "Try it out" on GET /v1/apps without a key: the browser may call the API (connect-src 'self') and shows the 401.
      const listApps = page.locator('#operations-apps-AppsController_list');
      await listApps.locator('.opblock-summary').click();
      await listApps.locator('button.try-out__btn').click();
      await listApps.locator('button.execute').click();
      await listApps.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
      expect((await listApps.locator('.live-responses-table tr.response .response-col_status').first().textContent())?.trim()).toBe('401');
      expect(problems).toEqual([]);

      // A page of another origin framing /docs gets the browser's error page instead (a route without the CSP loads).
      const framer = await serveHtml(`<iframe src="${app.url}/health/live"></iframe><iframe src="${app.url}/docs"></iframe>`);
      try {
        await page.goto(framer.url);
        await until(() => page.frames().length === 3 && page.frames().every((frame) => frame.url() !== ''), 15_000, 'the frames');
        expect(page.frames().map((frame) => frame.url())).toEqual([framer.url, `${app.url}/health/live`, 'chrome-error://chromewebdata/']);
      } finally {
        await framer.close();
      }
    } finally {
      await session.close();
    }
  });
});

/** A page of its own origin on 127.0.0.1 (a local page may frame a local one; about:blank may not). */
async function serveHtml(html: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

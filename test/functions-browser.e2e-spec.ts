import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, openProfile, screenshot } from './support/browser.js';
import { scrollWidth, seriousViolations } from './support/portal-browser.js';
import { portalSession, type PortalSession } from './support/portal-session.js';
import { siteRequest } from './support/site-http.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const ROOT = join(import.meta.dirname, '..');
const SDK_DIR = join(ROOT, 'libs/sdk');
const SECRET = 'nk_live_do_not_show_7f3a';

/** The app's server code: a form handler that signs the visitor up through the platform, with the token the platform gives it. */
const SERVER = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === '/api/hello') {
      console.log('hello from', url.pathname);
      return Response.json({ greeting: env.GREETING });
    }
    if (url.pathname === '/api/signup' && request.method === 'POST') {
      const email = String((await request.formData()).get('email') ?? '');
      if (env.NEWSLETTER_KEY !== '${SECRET}') return new Response('the secret is missing', { status: 500 });
      const answer = await fetch(env.PLATFORM_URL + '/users', {
        method: 'POST',
        headers: { authorization: 'Bearer ' + env.PLATFORM_TOKEN, 'content-type': 'application/json' },
        body: JSON.stringify({ appId: env.APP_ID, email }),
      });
      const user = await answer.json();
      console.log('signed up', user.id ?? 'nobody', 'status', answer.status);
      const page = answer.ok ? '<h1>Welcome aboard</h1><p>Check your inbox.</p>' : '<h1>Sign-up failed</h1>';
      return new Response('<!doctype html><html lang="en"><title>Notes</title>' + page, {
        status: answer.ok ? 200 : 502,
        headers: { 'content-type': 'text/html; charset=utf-8' },
      });
    }
    return new Response('not found', { status: 404 });
  },
};
`;
const INDEX = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pocket Notes</title></head>
<body><main><h1>Pocket Notes</h1>
<form method="post" action="/api/signup"><label for="email">E-mail</label> <input id="email" name="email" type="email" required> <button type="submit">Join the beta</button></form>
</main></body></html>`;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Server code end to end: the CLI (built like the published package) sets the variables and deploys files with
 * `--functions`; the portal's deployment page shows the routes, the variables' names (never a value) and the live
 * Logs view (htmx polling under the portal's CSP); a visitor in Chromium signs up through the function.
 */
describeInBrowser(`server code in a browser: the CLI deploys it, the portal shows it and its live logs (${target})`, () => {
  let app: TestApp;
  let owner: PortalSession;
  let session: BrowserSession;
  let cli: string;
  let out: string;
  let appId: string;
  let deploymentId: string;
  let siteOrigin: string;
  const work: string[] = [];

  const api = (method: 'get' | 'post', path: string, body?: object, key = owner.apiKey) => {
    const req = app.http()[method](path).set('authorization', `Bearer ${key}`);
    return body ? req.send(body) : req;
  };
  /** Asynchronous: the server answering the CLI runs in this very process. */
  const run = (args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [cli, ...args],
        { env: { PATH: process.env.PATH, PLATFORM_API_KEY: owner.apiKey, PLATFORM_BASE_URL: app.url }, encoding: 'utf8' },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const folder = (files: Record<string, string>) => {
    const dir = mkdtempSync(join(tmpdir(), 'fn-browser-'));
    work.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  };
  const pagePath = () => `/portal/apps/${appId}/deployments/${deploymentId}`;
  const logsText = (page: Page) => page.locator('#logs').innerText();

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'fn-browser-sdk-'));
    copyFileSync(join(SDK_DIR, 'package.json'), join(out, 'package.json'));
    execFileSync(process.execPath, [join(SDK_DIR, 'scripts/build.mjs'), out], { stdio: 'pipe' });
    cli = join(out, 'dist/esm/libs/sdk/src/cli.js');
    app = await startTestApp({ env: NO_RATE_LIMIT });
    owner = await portalSession(app, 'functions-browser@example.com');
    appId = (await api('post', '/v1/apps', { name: 'Pocket Notes', slug: 'pocket-notes' }).expect(201)).body.appId;

    for (const args of [
      ['env', 'set', 'APP_ID', appId, '--app', appId],
      ['env', 'set', 'GREETING', 'hello there', '--app', appId],
      ['env', 'set', 'NEWSLETTER_KEY', SECRET, '--secret', '--app', appId],
    ]) {
      expect(await run(args)).toMatchObject({ code: 0, stderr: '' });
    }
    const site = folder({ 'index.html': INDEX });
    const server = folder({ 'index.js': SERVER });
    const deployed = await run(['deploy', site, '--app', appId, '--functions', server, '--publish', '--json']);
    expect(deployed).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(deployed.stdout);
    deploymentId = result.deploymentId;
    siteOrigin = new URL(result.url).origin;
    expect(result.functions).toEqual({ entry: '/_server/index.js', routes: ['/api/*'] });

    session = await openBrowser();
    const { hostname } = new URL(app.url);
    await session.context.addCookies([{ name: 'portal_session', value: owner.cookie.split('=')[1], domain: hostname, path: '/portal' }]);
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    await app?.close();
    for (const dir of [out, ...work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("shows the deployment's routes and variables' names, never a value, and its logs live as they are written", async () => {
    expect((await siteRequest(app.url, new URL(siteOrigin).host, '/api/hello')).text).toBe('{"greeting":"hello there"}');
    const { page } = session;
    await page.goto(`${app.url}/portal/apps/${appId}`);
    await page.getByRole('link', { name: `Details and logs of ${deploymentId}` }).click();
    await page.waitForURL(`${app.url}${pagePath()}`);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(`Deployment ${deploymentId}`);
    const server = page.getByRole('region', { name: 'Server code' });
    await expect(server.locator('.routes').innerText()).resolves.toBe('/api/*');
    await expect(server.locator('.variables li code').allInnerTexts()).resolves.toEqual(['APP_ID', 'GREETING', 'NEWSLETTER_KEY']);
    const html = await page.content();
    for (const value of [SECRET, 'hello there']) expect([value, html.includes(value)]).toEqual([value, false]);
    await until(async () => (await logsText(page)).includes('hello from /api/hello'), 10_000);

    // A line written while the page is open comes in without a reload (htmx's poll: the CSP is the portal's own, not bypassed).
    const before = page.url();
    await siteRequest(app.url, new URL(siteOrigin).host, '/api/hello?live=1');
    await until(async () => (await logsText(page)).match(/hello from \/api\/hello/g)?.length === 2, 15_000, 'the second line in the Logs view');
    expect(page.url()).toBe(before);
    expect(await logsText(page)).not.toContain('live=1'); // no query string in the request lines
    await screenshot(page, 'functions-deployment-1280');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, 'functions-deployment-390');
  }, 60_000);

  it('passes axe at 1280 and 390 px', async () => {
    // axe-core is injected, which the portal's CSP forbids: a context of its own that bypasses it.
    const context = await session.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    try {
      await context.addCookies(await session.context.cookies());
      const page = await context.newPage();
      await page.goto(`${app.url}${pagePath()}`);
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${app.url}/portal/apps/${appId}/variables`);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("signs a visitor up from the site's form through the function (PLATFORM_URL + PLATFORM_TOKEN); its line shows in the portal's Logs view", async () => {
    const visitor = await openProfile(session.browser, {
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
    });
    try {
      const { page } = visitor;
      await page.goto(`${siteOrigin}/`);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Pocket Notes');
      await page.getByLabel('E-mail').fill('Visitor@Example.com');
      await Promise.all([page.waitForURL(`${siteOrigin}/api/signup`), page.getByRole('button', { name: 'Join the beta' }).click()]);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Welcome aboard');
      await screenshot(page, 'functions-visitor-signed-up');
    } finally {
      await visitor.close();
    }

    // The user exists, in the app, made by the deployment's own credential.
    const users = (await api('get', `/v1/users?appId=${appId}`).expect(200)).body.data as Array<{ id: string; email: string; appId: string }>;
    expect(users).toEqual([expect.objectContaining({ email: 'visitor@example.com', appId })]);
    const userId = users[0].id;

    // The function's line, with the new user's id, in the deployment's Logs view (and through the API).
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}${pagePath()}`);
    await until(async () => (await logsText(page)).includes(`signed up ${userId} status 201`), 15_000, "the function's line in the Logs view");
    await expect(logsText(page)).resolves.toMatch(/request\s+POST \/api\/signup 200 \d+ms/);
    await screenshot(page, 'functions-deployment-signup-logs');
    const lines = (await api('get', `/v1/deployments/${deploymentId}/logs?limit=1000`).expect(200)).body.data as Array<{ message: string }>;
    expect(lines.map((l) => l.message)).toContain(`signed up ${userId} status 201`);
    expect(JSON.stringify(lines)).not.toContain('visitor@example.com'); // the function logged the id, not the address
  }, 90_000);

  it("sets and deletes the environments' variables on the app's Variables page, a secret's value never shown", async () => {
    const { page } = session;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/portal/apps/${appId}`);
    await page.getByRole('link', { name: 'Variables of its server code' }).click();
    await page.waitForURL(`${app.url}/portal/apps/${appId}/variables`);
    const production = page.getByRole('region', { name: 'production' });
    await expect(production.locator('tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^APP_ID\s+app_/),
      expect.stringMatching(/^GREETING\s+hello there/),
      expect.stringMatching(/^NEWSLETTER_KEY\s+secret/),
    ]);
    expect(await page.content()).not.toContain(SECRET);

    // A secret set in the form: stored sealed, listed without its value.
    await page.getByLabel('Environment').selectOption('staging');
    await page.getByLabel('Name').fill('WEBHOOK_SECRET');
    await page.getByLabel('Value').fill('whsec_from_the_portal');
    await page.getByLabel('Secret: encrypted, never shown again').check();
    await page.getByRole('button', { name: 'Set variable' }).click();
    await page.waitForURL(/\?done=set$/);
    await expect(page.getByRole('status').innerText()).resolves.toContain('Variable saved');
    await expect(page.getByRole('region', { name: 'staging' }).locator('tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^WEBHOOK_SECRET\s+secret/),
    ]);
    expect(await page.content()).not.toContain('whsec_from_the_portal');
    expect((await api('get', `/v1/apps/${appId}/environments/staging/vars`).expect(200)).body.data).toEqual([
      { name: 'WEBHOOK_SECRET', secret: true, updatedAt: expect.any(String) },
    ]);
    const audit = (await api('get', '/v1/audit-log?action=env_var.set').expect(200)).body.data;
    expect(JSON.stringify(audit)).toContain('WEBHOOK_SECRET');
    expect(JSON.stringify(audit)).not.toContain('whsec_from_the_portal');

    // A name the API refuses: said on the page in its words, the secret's value not sent back.
    await page.getByLabel('Name').fill('PLATFORM_TOKEN');
    await page.getByLabel('Value').fill('sneaky_secret_value');
    await page.getByLabel('Secret: encrypted, never shown again').check();
    await page.getByRole('button', { name: 'Set variable' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toContain('name must not start with PLATFORM_');
    expect(await page.content()).not.toContain('sneaky_secret_value');
    await expect(page.getByLabel('Name').inputValue()).resolves.toBe('PLATFORM_TOKEN');
    await screenshot(page, 'functions-variables-1280');

    await page.getByRole('button', { name: 'Delete WEBHOOK_SECRET from staging' }).click();
    await page.waitForURL(/\?done=deleted$/);
    expect((await api('get', `/v1/apps/${appId}/environments/staging/vars`).expect(200)).body.data).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await screenshot(page, 'functions-variables-390');
  }, 60_000);

  it("answers 404 for another app's or account's deployment, and the sign-in page without a session", async () => {
    const other = await portalSession(app, 'functions-other@example.com');
    const page = (path: string, cookie?: string) => {
      const req = app.http().get(path);
      return cookie ? req.set('cookie', cookie) : req;
    };
    expect((await page(pagePath(), other.cookie)).status).toBe(404);
    expect((await page(`${pagePath()}/logs`, other.cookie)).status).toBe(404);
    expect((await page(`/portal/apps/${appId}/variables`, other.cookie)).status).toBe(404);
    const forged = await app
      .http()
      .post(`/portal/apps/${appId}/variables`)
      .set('cookie', other.cookie)
      .type('form')
      .send({ _csrf: other.csrf, env: 'production', name: 'HIJACK', value: 'x' });
    expect(forged.status).toBe(404);
    const noCsrf = await app
      .http()
      .post(`/portal/apps/${appId}/variables`)
      .set('cookie', owner.cookie)
      .type('form')
      .send({ env: 'production', name: 'NO_CSRF', value: 'x' });
    expect(noCsrf.status).toBe(403);
    expect((await api('get', `/v1/apps/${appId}/environments/production/vars`).expect(200)).body.data.map((v: { name: string }) => v.name)).toEqual([
      'APP_ID',
      'GREETING',
      'NEWSLETTER_KEY',
    ]);
    const secondApp = (await api('post', '/v1/apps', { name: 'Second' }).expect(201)).body.appId;
    expect((await page(`/portal/apps/${secondApp}/deployments/${deploymentId}`, owner.cookie)).status).toBe(404);
    const anonymous = await page(`${pagePath()}/logs`);
    expect([anonymous.status, anonymous.headers.location]).toEqual([303, '/portal/login']);

    const fragment = await page(`${pagePath()}/logs`, owner.cookie).expect(200);
    expect(fragment.headers['content-security-policy']).toContain("script-src 'self'");
    expect(fragment.headers['cache-control']).toBe('no-store');
    expect(fragment.text).toContain('hello from /api/hello');
    expect(fragment.text).not.toContain('<html'); // the list alone, swapped into the page
    expect(fragment.text).not.toContain(SECRET);
  }, 60_000);
});

import { request as httpRequest } from 'node:http';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, openProfile, screenshot } from './support/browser.js';
import { act, criticalViolations } from './support/portal-browser.js';
import { verify } from '../libs/webhook-signature/index.js';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { hashPassword, verifyPassword } from '../src/portal/password-hash.js';
import { UsersService } from '../src/users/users.service.js';
import { OpenAiStub, startOpenAiStub } from './support/openai-stub.js';
import { csrfOf } from './support/portal-session.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';

const PASSWORD = 'correct horse battery staple';

/** A landing page as the editor's form posts it (`hero.headline`, `features.0.title`, `signup.enabled=on`…). */
function formFields(value: unknown, name = ''): Record<string, string> {
  if (typeof value === 'object' && value !== null) {
    return Object.assign({}, ...Object.entries(value).map(([key, inner]) => formFields(inner, name ? `${name}.${key}` : key)));
  }
  return value === false ? {} : { [name]: value === true ? 'on' : String(value) };
}

describeInBrowser(`developer portal in a browser (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let stub: OpenAiStub;
  const receiver = new Receiver();

  const createAccount = async (email: string) =>
    (await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201)).body as {
      accountId: string;
      apiKey: string;
      portalInviteUrl: string;
    };

  beforeAll(async () => {
    stub = await startOpenAiStub();
    await receiver.start();
    app = await startTestApp({
      env: { ...NO_RATE_LIMIT, AI_PROVIDER: 'openai', AI_BASE_URL: stub.url, AI_MODEL: 'gpt-test', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50' },
    });
    session = await openBrowser({ bypassCSP: true });
  });
  afterAll(async () => {
    await session?.close();
    await app.close();
    await stub.close();
    await receiver.stop();
  });

  it('invite → password → key → app (edit, AI, deploy, publish) → public page → webhook (test, log, resend) → revoke → sign out', async () => {
    const { page } = session;
    const account = await createAccount('portal-dev@example.com');
    expect(account.portalInviteUrl).toMatch(new RegExp(`^${app.url.replace('127.0.0.1', '(127.0.0.1|localhost)')}/portal/invite/[A-Za-z0-9_-]{32}$`));

    // Signed out, pages send you to sign in.
    await page.goto(`${app.url}/portal/`);
    expect(new URL(page.url()).pathname).toBe('/portal/login');
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-login');

    await page.goto(account.portalInviteUrl.replace(/^http:\/\/[^/]+/, app.url));
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('The same again').fill(`${PASSWORD}!`);
    await act(page, page.getByRole('button', { name: 'Set password and sign in' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain('The two passwords differ');
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-invite');
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('The same again').fill(PASSWORD);
    await act(page, page.getByRole('button', { name: 'Set password and sign in' }));

    expect(new URL(page.url()).pathname).toBe('/portal/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await expect(page.getByRole('heading', { name: 'Plan: Free' }).isVisible()).resolves.toBe(true);
    // The overview names the meter nearest its limit and links to the billing page's table (not repeated here).
    await expect(page.getByText(/^Nearest its limit this month: /).count()).resolves.toBe(1);
    await expect(page.getByRole('link', { name: /^Usage of all \d meters/ }).count()).resolves.toBe(1);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-overview');
    const cookies = await session.context.cookies();
    expect(cookies.find((c) => c.name === 'portal_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/portal' });

    // The invite is used up.
    await page.goto(account.portalInviteUrl.replace(/^http:\/\/[^/]+/, app.url));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Invite not valid');

    await page.goto(`${app.url}/portal/api-keys`);
    await page.getByLabel('Name').fill('from-the-portal');
    await page.getByLabel('apps:read').check();
    await act(page, page.getByRole('button', { name: 'Create key' }));
    const key = await page.getByLabel('Your new key').inputValue();
    expect(key).toMatch(/^sk_/);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-api-keys');
    // The key works against /v1, with the scopes chosen.
    await app.http().get('/v1/apps').set('authorization', `Bearer ${key}`).expect(200);
    await app.http().post('/v1/apps').set('authorization', `Bearer ${key}`).send({ name: 'Nope' }).expect(403);

    // An app: create, edit, write the page with AI, deploy, publish, open its public address.
    await act(page, page.getByRole('link', { name: 'Apps' }));
    await page.getByLabel('Name').fill('Portal Recipes');
    await page.getByLabel('Description').fill('Family recipes, from the portal');
    await act(page, page.getByRole('button', { name: 'Create app' }));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Portal Recipes');
    await page.getByLabel('Slug (the public address)').fill('portal-recipes');
    await page.getByLabel('List in the public catalogue').check();
    await act(page, page.getByRole('button', { name: 'Save settings' }));
    await expect(page.getByRole('status').textContent()).resolves.toBe('Settings saved.');
    // The landing-page editor is its own page (its form reloads the page: no htmx swap).
    await act(page, page.getByRole('link', { name: 'Edit the landing page' }));
    await page.getByLabel(/^Headline \(/).fill('Cook together, remember forever');
    await Promise.all([page.waitForURL(/done=saved$/), page.getByRole('button', { name: 'Save', exact: true }).click()]);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Saved. Deploy to serve it.');
    await page.getByLabel(/^What AI should stress/).fill('For busy parents');
    await Promise.all([page.waitForURL(/done=generated-hero/), page.getByRole('button', { name: 'Write the hero with AI' }).click()]);
    await expect(page.getByRole('status').textContent()).resolves.toContain('written by AI');
    expect(stub.requests.length).toBeGreaterThan(0);
    await act(page, page.getByRole('link', { name: '← Portal Recipes' }));
    await act(page, page.getByRole('button', { name: 'Deploy' }));
    await expect(page.getByRole('status').textContent()).resolves.toBe('Deployed to production.');
    await act(page, page.getByRole('button', { name: /^Publish dep_/ }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Published');
    expect(new URL(page.url()).search).toBe('?done=published');
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-app');
    await page
      .getByRole('link', { name: /\/p\/portal-recipes\/$/ })
      .first()
      .click();
    expect(new URL(page.url()).pathname).toBe('/p/portal-recipes/');
    await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
    const catalogue = (await app.http().get('/catalog').expect(200)).body;
    expect(catalogue.data.map((a: { slug: string }) => a.slug)).toContain('portal-recipes');

    // A webhook endpoint to a local receiver: the secret once, a test event, the delivery log, a resend.
    await page.goto(`${app.url}/portal/webhooks`);
    await page.getByLabel('URL').fill(`${receiver.url}/portal-hook`);
    await page.getByLabel(/^Events/).fill('*');
    await act(page, page.getByRole('button', { name: 'Add endpoint' }));
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await act(page, page.getByRole('link', { name: 'Open the endpoint' }));
    await act(page, page.getByRole('button', { name: 'Send test event' }));
    await until(() => receiver.at('/portal-hook').length === 1, 10_000, 'the test event');
    const delivered = receiver.at('/portal-hook')[0];
    expect(verify(delivered.raw, delivered.headers['x-service-signature'] as string, secret)).toBeGreaterThan(0);
    expect(JSON.parse(delivered.raw).event).toBe('webhook.test');
    await until(
      async () => {
        await page.reload();
        return (await page.getByRole('article', { name: /webhook\.test/ }).textContent())?.includes('Succeeded') ?? false;
      },
      10_000,
      'the delivery log to show the attempt',
    );
    await expect(page.getByRole('article', { name: /webhook\.test/ }).innerText()).resolves.toMatch(/#1\s+\d\d:\d\d:\d\d\s+200 OK\s+\d+ ms/);
    await act(page, page.getByRole('button', { name: /^Resend webhook\.test/ }));
    await until(() => receiver.at('/portal-hook').length === 2, 10_000, 'the resent event');
    expect(JSON.parse(receiver.at('/portal-hook')[1].raw).id).toBe(JSON.parse(delivered.raw).id);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-webhook');
    // Actions swap the page in place (htmx, served from here): the window was never reloaded.
    await page.evaluate(() => ((globalThis as unknown as { kept: boolean }).kept = true));
    await act(page, page.getByRole('button', { name: 'Rotate secret' }));
    expect(await page.evaluate(() => (globalThis as unknown as { kept?: boolean }).kept)).toBe(true);
    const rotated = await page.getByLabel(/^New signing secret/).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await act(page, page.getByRole('button', { name: 'Disable' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Disabled');
    await act(page, page.getByRole('button', { name: 'Delete endpoint' }));
    expect(new URL(page.url()).pathname).toBe('/portal/webhooks');
    await expect(page.getByText('No endpoints yet.').count()).resolves.toBe(1);
    expect(await criticalViolations(page)).toEqual([]);
    await act(page, page.getByRole('link', { name: 'Apps' }));
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-apps');

    await page.goto(`${app.url}/portal/api-keys`);
    await act(page, page.getByRole('button', { name: 'Revoke from-the-portal' }));
    expect(new URL(page.url()).pathname).toBe('/portal/api-keys');
    await expect(page.getByRole('button', { name: 'Revoke from-the-portal' }).count()).resolves.toBe(0);
    await app.http().get('/v1/apps').set('authorization', `Bearer ${key}`).expect(401);

    await act(page, page.getByRole('button', { name: 'Sign out' }));
    expect(new URL(page.url()).pathname).toBe('/portal/login');
    await page.goto(`${app.url}/portal/api-keys`);
    expect(new URL(page.url()).pathname).toBe('/portal/login');

    // Signing in again with the password.
    await page.getByLabel('E-mail').fill('portal-dev@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await act(page, page.getByRole('button', { name: 'Sign in' }));
    expect(new URL(page.url()).pathname).toBe('/portal/');
  }, 120_000);

  it('shows users (CSV, erase), service accounts, events, billing and app analytics — every page accessible', async () => {
    const { page } = session;
    // Still signed in from the walk-through. A visitor signs up through the published page.
    const [{ id: appId, account_id: ownerId }]: Array<{ id: string; account_id: string }> = await app.query(
      `SELECT id, account_id FROM apps WHERE slug = 'portal-recipes'`,
    );
    await app
      .http()
      .get('/p/portal-recipes/')
      .set({ 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0', accept: 'text/html' })
      .expect(200);
    await app.server.app.get(UsersService).create(ownerId, { appId, email: '=cmd@example.com' });
    await app.server.app.get(AnalyticsBuffer).flush();

    await page.goto(`${app.url}/portal/`);
    await expect(page.getByRole('img', { name: /^Visitors: 1 in 30 days/ }).count()).resolves.toBe(1);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-overview-charts');

    await act(page, page.getByRole('link', { name: 'Users' }));
    await expect(page.getByRole('row', { name: /=cmd@example\.com/ }).count()).resolves.toBe(1);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-users');
    const cookie = (await session.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
    const csv = await app.http().get(`/portal/users.csv?appId=${appId}`).set('cookie', cookie).expect(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text).toMatch(/^id,email,created_at\nusr_\w+,'=cmd@example\.com,\d{4}-/);
    await act(page, page.getByRole('button', { name: 'Erase =cmd@example.com' }));
    await expect(page.getByRole('row', { name: /=cmd@example\.com/ }).count()).resolves.toBe(0);
    expect(await app.query(`SELECT count(*)::int AS n FROM users WHERE app_id = $1`, [appId])).toEqual([{ n: 0 }]);

    await act(page, page.getByRole('link', { name: 'Service accounts' }));
    await page.getByLabel('Name').fill('ci');
    await page.getByLabel('apps:read').check();
    await act(page, page.getByRole('button', { name: 'Create service account' }));
    const clientSecret = await page.getByLabel('Client secret').inputValue();
    const clientId = (await page.locator('.created code').first().textContent())!;
    await app.http().post('/v1/oauth/token').auth(clientId, clientSecret).type('form').send({ grant_type: 'client_credentials' }).expect(200);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-service-accounts');
    await act(page, page.getByRole('button', { name: 'Revoke ci' }));
    await app.http().post('/v1/oauth/token').auth(clientId, clientSecret).type('form').send({ grant_type: 'client_credentials' }).expect(401);

    await act(page, page.getByRole('link', { name: 'Events' }));
    await expect(page.getByRole('row', { name: /app\.published/ }).count()).resolves.toBeGreaterThan(0);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-events');

    await act(page, page.getByRole('link', { name: 'Billing' }));
    await expect(
      page
        .getByRole('row', { name: /deployments/ })
        .first()
        .textContent(),
    ).resolves.toContain('1');
    await expect(page.getByRole('row', { name: /open/ }).count()).resolves.toBe(1);
    await expect(page.getByRole('row', { name: /^Bandwidth/ }).textContent()).resolves.toMatch(/\d B/);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-billing');

    await page.goto(`${app.url}/portal/apps/${appId}/analytics`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Analytics: Portal Recipes');
    await expect(page.getByRole('link', { name: /^Unique visitors\s+1/ }).count()).resolves.toBe(1);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-analytics');

    // With JavaScript off every page still works: they are plain HTML and forms.
    const noScript = await openProfile(session.browser, { javaScriptEnabled: false });
    try {
      await noScript.page.goto(`${app.url}/portal/login`);
      await noScript.page.getByLabel('E-mail').fill('portal-dev@example.com');
      await noScript.page.getByLabel('Password').fill(PASSWORD);
      await noScript.page.getByRole('button', { name: 'Sign in' }).click();
      expect(new URL(noScript.page.url()).pathname).toBe('/portal/');
      await expect(noScript.page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    } finally {
      await noScript.close();
    }
  });

  describe('over HTTP', () => {
    /** A form's CSRF token and the cookies it is bound to. */
    const formOf = async (path: string, cookie = '') => {
      const res = await app.http().get(path).set('cookie', cookie);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(res.text)?.[1];
      const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
      return { csrf, cookie: [cookie, ...set].filter(Boolean).join('; ') };
    };
    const signIn = async (email: string, password: string) => {
      const form = await formOf('/portal/login');
      return app.http().post('/portal/login').set('cookie', form.cookie).type('form').send({ _csrf: form.csrf, email, password });
    };
    const invited = async (email: string) => {
      const account = await createAccount(email);
      const path = new URL(account.portalInviteUrl).pathname;
      const form = await formOf(path);
      const res = await app
        .http()
        .post(path)
        .set('cookie', form.cookie)
        .type('form')
        .send({ _csrf: form.csrf, password: PASSWORD, confirm: PASSWORD })
        .expect(303);
      const session = ([] as string[]).concat(res.headers['set-cookie']).find((c) => c.startsWith('portal_session='))!;
      expect(session).toMatch(/; Path=\/portal; HttpOnly; SameSite=Lax/);
      return { ...account, cookie: session.split(';')[0] };
    };

    it('refuses a password shorter than 12 characters, on the server too', async () => {
      const account = await createAccount('short@example.com');
      const path = new URL(account.portalInviteUrl).pathname;
      const form = await formOf(path);
      const res = await app.http().post(path).set('cookie', form.cookie).type('form').send({ _csrf: form.csrf, password: 'short', confirm: 'short' });
      expect(res.status).toBe(400);
      expect(res.text).toContain('at least 12 characters');
      expect(await app.query(`SELECT count(*)::int AS n FROM portal_passwords WHERE account_id = $1`, [account.accountId])).toEqual([{ n: 0 }]);
    });

    it('locks an e-mail for 15 minutes after 5 wrong passwords', async () => {
      await invited('locked@example.com');
      for (let i = 0; i < 4; i++) expect((await signIn('locked@example.com', 'wrong password!!')).status).toBe(401);
      const fifth = await signIn('locked@example.com', 'wrong password!!');
      expect(fifth.status).toBe(429);
      expect(fifth.text).toContain('locked for 15 minutes');
      // Even the right password waits.
      expect((await signIn('locked@example.com', PASSWORD)).status).toBe(429);
      await app.query(`UPDATE portal_sign_in_attempts SET attempted_at = array(SELECT t - interval '16 minutes' FROM unnest(attempted_at) t)`);
      expect((await signIn('locked@example.com', PASSWORD)).status).toBe(303);
    });

    it('hashes a password set at another cost again at the current one when it signs in (PASSWORD_HASH_COST changed)', async () => {
      const { accountId } = await invited('rehash@example.com');
      // As if it had been set before the operator raised the cost from 9 to the tests' 10.
      await app.query(`UPDATE portal_passwords SET hash = $2 WHERE account_id = $1`, [accountId, await hashPassword(PASSWORD, 9)]);
      const hashOf = async () => ((await app.query(`SELECT hash FROM portal_passwords WHERE account_id = $1`, [accountId])) as Array<{ hash: string }>)[0].hash;
      expect((await signIn('rehash@example.com', 'wrong password!!')).status).toBe(401);
      expect(await hashOf()).toMatch(/^scrypt\$512\$/); // a wrong password changes nothing
      expect((await signIn('rehash@example.com', PASSWORD)).status).toBe(303);
      const rehashed = await hashOf();
      expect(rehashed).toMatch(/^scrypt\$1024\$8\$1\$/);
      expect(await verifyPassword(PASSWORD, rehashed)).toBe(true);
      expect((await signIn('rehash@example.com', PASSWORD)).status).toBe(303);
      expect(await hashOf()).toBe(rehashed); // once, not at every sign-in
    });

    it('refuses a form without its CSRF token (403, nothing changed), and a forged login', async () => {
      const dev = await invited('csrf@example.com');
      const before = await app.query(`SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1`, [dev.accountId]);
      const forged = await app.http().post('/portal/api-keys').set('cookie', dev.cookie).type('form').send({ name: 'forged', scopes: 'apps:read' });
      expect(forged.status).toBe(403);
      expect(forged.text).toContain('Nothing was changed');
      expect(await app.query(`SELECT count(*)::int AS n FROM api_keys WHERE account_id = $1`, [dev.accountId])).toEqual(before);
      const wrongToken = await app
        .http()
        .post('/portal/api-keys')
        .set('cookie', dev.cookie)
        .type('form')
        .send({ _csrf: 'x'.repeat(43), name: 'forged' });
      expect(wrongToken.status).toBe(403);
      // A login posted from elsewhere has no token bound to the browser's cookie.
      expect((await app.http().post('/portal/login').type('form').send({ email: 'csrf@example.com', password: PASSWORD })).status).toBe(403);
      // With the token, it works.
      const form = await formOf('/portal/api-keys', dev.cookie);
      const made = await app
        .http()
        .post('/portal/api-keys')
        .set('cookie', dev.cookie)
        .type('form')
        .send({ _csrf: form.csrf, name: 'real', scopes: 'apps:read' });
      expect(made.status).toBe(200);
      expect(made.headers['cache-control']).toBe('no-store');
      expect(made.headers['content-security-policy']).toContain("default-src 'none'");
    });

    it('ends a session after 12 idle hours, and on sign-out on the server too', async () => {
      const dev = await invited('idle@example.com');
      expect((await app.http().get('/portal/').set('cookie', dev.cookie)).status).toBe(200);
      await app.query(`UPDATE portal_sessions SET last_seen_at = now() - interval '12 hours 1 minute' WHERE account_id = $1`, [dev.accountId]);
      const expired = await app.http().get('/portal/').set('cookie', dev.cookie);
      expect(expired.status).toBe(303);
      expect(expired.headers.location).toBe('/portal/login');
      const again = await invitedSession(dev.accountId);
      const form = await formOf('/portal/', again);
      await app.http().post('/portal/logout').set('cookie', again).type('form').send({ _csrf: form.csrf }).expect(303);
      expect(await app.query(`SELECT count(*)::int AS n FROM portal_sessions WHERE account_id = $1`, [dev.accountId])).toEqual([{ n: 0 }]);
      expect((await app.http().get('/portal/').set('cookie', again)).status).toBe(303);
    });

    it('stops the AI writing when the browser leaves, from the app page and from the editor', async () => {
      const dev = await invited('left-early@example.com');
      const auth = { authorization: `Bearer ${dev.apiKey}` };
      const appId = (await app.http().post('/v1/apps').set(auth).send({ name: 'Left Early' }).expect(201)).body.appId;
      const { page } = (await app.http().get(`/v1/apps/${appId}/landing-page`).set(auth).expect(200)).body;
      const csrf = csrfOf((await app.http().get(`/portal/apps/${appId}`).set('cookie', dev.cookie).expect(200)).text);
      const posts: Array<[string, Record<string, string>, string]> = [
        [`/portal/apps/${appId}/generate`, { _csrf: csrf, prompt: 'Slow [hang] [left-app-page]' }, '[left-app-page]'],
        [`/portal/apps/${appId}/editor`, { ...formFields(page), _csrf: csrf, _action: 'generate:hero', prompt: 'Slow [hang] [left-editor]' }, '[left-editor]'],
      ];
      for (const [path, form, marker] of posts) {
        // The browser posts, the portal asks the AI provider (which never answers), the browser goes elsewhere.
        const post = httpRequest(`${app.url}${path}`, {
          method: 'POST',
          agent: false,
          headers: { cookie: dev.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        });
        post.on('error', () => undefined);
        post.end(new URLSearchParams(form).toString());
        await until(() => stub.requestsWith(marker).length > 0, 10_000, `the AI provider asked (${path})`);
        post.destroy();
        // The portal hangs up on the provider then, not when AI_TIMEOUT_MS (60 s) runs out.
        const [upstream] = stub.requestsWith(marker);
        let closed = false;
        void upstream.closed.then(() => (closed = true));
        await until(() => closed, 10_000, `the portal hanging up on the AI provider (${path})`);
        expect(upstream.abandoned()).toBe(true);
      }
    });

    /** Signs the account in again (its password is PASSWORD). */
    async function invitedSession(accountId: string): Promise<string> {
      const [{ email }]: Array<{ email: string }> = await app.query(`SELECT email FROM accounts WHERE id = $1`, [accountId]);
      const res = await signIn(email, PASSWORD);
      expect(res.status).toBe(303);
      return ([] as string[])
        .concat(res.headers['set-cookie'])
        .find((c) => c.startsWith('portal_session='))!
        .split(';')[0];
    }
  });
});

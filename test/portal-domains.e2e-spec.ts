import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { act, criticalViolations } from './support/portal-browser.js';
import { TestDnsServer } from './support/dns-server.js';
import { portalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const SITES = 'apps.example.test';

describeInBrowser(`custom domains in the portal (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SITES_DOMAIN: SITES, DNS_SERVERS: dns.address } });
    session = await openBrowser({ bypassCSP: true });
  });
  afterAll(async () => {
    await session?.close();
    await app.close();
    await dns.stop();
  });

  it('adds a domain, shows the records to create and its status, verifies it once the TXT record exists, deletes it', async () => {
    const { page, context } = session;
    const signedIn = await portalSession(app, 'domains-dev@example.com');
    const [name, value] = signedIn.cookie.split('=');
    await context.addCookies([{ name, value, url: `${app.url}/portal/` }]);
    const auth = { authorization: `Bearer ${signedIn.apiKey}` };
    const created = (await app.http().post('/v1/apps').set(auth).send({ name: 'Corner Bakery', slug: 'corner-bakery' }).expect(201)).body;
    await app.http().post('/v1/apps/deploy').set(auth).send({ appId: created.appId, env: 'production' }).expect(200);
    await app.http().post(`/v1/apps/${created.appId}/publish`).set(auth).send({}).expect(200);

    await page.goto(`${app.url}/portal/apps/${created.appId}`);
    const card = page.getByRole('region', { name: 'Custom domains' });
    // A bad name: the page again, saying why.
    await card.getByLabel('Domain').fill('192.0.2.7');
    await act(page, card.getByRole('button', { name: 'Add domain' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain('is an IP address');

    await page.getByRole('region', { name: 'Custom domains' }).getByLabel('Domain').fill('www.Corner-Bakery.example');
    await act(page, page.getByRole('region', { name: 'Custom domains' }).getByRole('button', { name: 'Add domain' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Domain added');
    const [domain] = (await app.http().get(`/v1/apps/${created.appId}/domains`).set(auth).expect(200)).body.data;
    expect(domain.hostname).toBe('www.corner-bakery.example');

    // The records to create, exactly as the API gives them, and the status.
    const entry = page.getByRole('article', { name: /www\.corner-bakery\.example/ });
    await expect(entry.getByRole('heading').textContent()).resolves.toMatch(/www\.corner-bakery\.example\s+pending/);
    await expect(entry.getByRole('row', { name: /^TXT/ }).textContent()).resolves.toMatch(
      new RegExp(`TXT\\s*_platform-challenge\\.www\\.corner-bakery\\.example\\s*${domain.verification.value}`),
    );
    await expect(entry.getByRole('row', { name: /^CNAME/ }).textContent()).resolves.toMatch(
      /CNAME\s*www\.corner-bakery\.example\s*corner-bakery\.apps\.example\.test/,
    );
    await expect(entry.getByText('Not checked yet').count()).resolves.toBe(1);

    // Verify before the record exists: still pending, and the page says what the check found.
    dns.set(domain.verification.name, { txt: ['left-over-value'] });
    await act(page, page.getByRole('button', { name: 'Verify www.corner-bakery.example now' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Not verified yet');
    const pending = page.getByRole('article', { name: /www\.corner-bakery\.example/ });
    await expect(pending.textContent()).resolves.toMatch(/holds 1 other value, not the verification value — found: left-over-value/);
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-domains');

    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    await act(page, page.getByRole('button', { name: 'Verify www.corner-bakery.example now' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Domain verified');
    const verified = page.getByRole('article', { name: /www\.corner-bakery\.example/ });
    await expect(verified.getByRole('heading').textContent()).resolves.toMatch(/verified/);
    await expect(verified.getByRole('link', { name: 'https://www.corner-bakery.example/' }).count()).resolves.toBe(1);
    // Its DNS does not point here yet: the page says which record is missing.
    await expect(verified.textContent()).resolves.toContain('Its DNS does not point here yet');
    expect(await criticalViolations(page)).toEqual([]);
    await screenshot(page, 'portal-domains-verified');
    expect((await app.http().get('/').set('host', 'www.corner-bakery.example').set('accept', 'text/html')).status).toBe(200);

    await act(page, page.getByRole('button', { name: 'Delete www.corner-bakery.example' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Domain deleted');
    await expect(page.getByRole('article').count()).resolves.toBe(0);
    expect((await app.http().get(`/v1/apps/${created.appId}/domains`).set(auth).expect(200)).body.data).toEqual([]);
  });
});

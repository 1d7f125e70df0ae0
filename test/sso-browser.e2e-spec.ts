import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { addMember } from './support/members.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { OidcTestProvider } from './support/oidc-provider.js';
import { axeViolations, scrollWidth } from './support/portal-browser.js';
import { PORTAL_PASSWORD, portalSession } from './support/portal-session.js';
import { TestDnsServer } from './support/dns-server.js';
import { proveSsoDomains, saveSso, type SsoFields, type SsoOwner } from './support/sso-settings.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const CLIENT_ID = 'platform-portal';
const CLIENT_SECRET = 'the platform portal client secret';

describeInBrowser(`single sign-on in a browser through a local OpenID provider (${target})`, () => {
  let app: TestApp;
  let provider: OidcTestProvider;
  let session: BrowserSession;
  /** The account under test: its owner's key and portal session, and the one e-mail domain its SSO allows. */
  let account: { accountId: string; apiKey: string; cookie: string; email: string };
  const domain = `acme-${randomBytes(4).toString('hex')}.test`;

  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, DNS_SERVERS: dns.address } });
    provider = await OidcTestProvider.start({
      clients: [
        { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, redirectUris: [`${app.url}/portal/sso/callback`] },
        // Another application at the same provider: a token for it must not open this portal.
        { clientId: 'another-app', clientSecret: 'another secret', redirectUris: ['http://127.0.0.1:9/callback'] },
      ],
      accounts: [
        { email: `alice@${domain}` },
        { email: `bob@${domain}` },
        { email: `owner@${domain}` },
        { email: `unverified@${domain}`, emailVerified: false },
        { email: 'mallory@elsewhere.test' },
        { email: `taken@${domain}` },
      ],
    });
    account = { ...(await portalSession(app, `owner@${domain}`)), email: `owner@${domain}` };
    await putSso(account, { issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, domains: [domain], defaultRole: 'developer' }, 200);
    await proveSsoDomains(app, account.apiKey, dns);
    session = await openBrowser();
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
    await provider?.stop();
    await dns.stop();
  });
  afterEach(() => {
    provider.tamper = null;
  });

  /** Saves the settings as the owner signed in to the portal (no key may: owner_member_required). */
  const putSso = (owner: SsoOwner, body: SsoFields, status: number) => saveSso(app, owner, body, status);
  /** A fresh browser profile: no cookies of the portal or of the provider. */
  const freshContext = () => session.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const pathname = (page: Page) => new URL(page.url()).pathname;
  const portalSessionCookie = async (context: BrowserContext) => (await context.cookies(`${app.url}/portal/`)).find((c) => c.name === 'portal_session');

  /** From the login page: "Sign in with SSO", the e-mail, then the provider's login and consent forms as `login`. */
  async function signInAtProvider(page: Page, email: string, login = email, shot?: string): Promise<void> {
    await page.goto(`${app.url}/portal/login`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Work e-mail').waitFor();
    if (shot) await screenshot(page, `${shot}-email`);
    await page.getByLabel('Work e-mail').fill(email);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('anything: the test provider checks no password');
    if (shot) await screenshot(page, `${shot}-provider`);
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${app.url}/portal/**`);
  }

  /** Signs in through the provider and expects the refusal page saying `reason`, with no session. */
  async function expectRefused(email: string, login: string, reason: string, shot: string): Promise<void> {
    const context = await freshContext();
    const page = await context.newPage();
    await signInAtProvider(page, email, login);
    expect(pathname(page)).toBe('/portal/sso/callback');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Single sign-on refused');
    await expect(page.locator('main').textContent()).resolves.toContain(reason);
    await screenshot(page, shot);
    expect(await portalSessionCookie(context)).toBeUndefined();
    await page.goto(`${app.url}/portal/`);
    expect(pathname(page)).toBe('/portal/login');
    await context.close();
  }

  const membersOf = (email: string) =>
    app.query<{ id: string; account_id: string; role: string }>('SELECT id, account_id, role FROM members WHERE email = $1', [email]);
  const auditOf = (memberId: string) =>
    app.query<{ action: string; actor_type: string; actor_id: string; target_id: string }>(
      'SELECT action, actor_type, actor_id, target_id FROM audit_log WHERE account_id = $1 AND actor_id = $2 ORDER BY created_at, action',
      [account.accountId, memberId],
    );

  it('a first sign-in through the provider creates a member with the default role (row and audit entries) and opens the portal', async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await signInAtProvider(page, `alice@${domain}`, `alice@${domain}`, 'sso-sign-in');
    expect(pathname(page)).toBe('/portal/');
    await screenshot(page, 'sso-signed-in');
    expect(await portalSessionCookie(context)).toBeDefined();
    await expect(page.locator('body').textContent()).resolves.toContain('Sign out');

    const [member] = await membersOf(`alice@${domain}`);
    expect(member).toEqual({ id: expect.stringMatching(/^mem_/), account_id: account.accountId, role: 'developer' });
    const entries = await auditOf(member.id);
    expect(entries).toEqual([
      { action: 'member.joined', actor_type: 'member', actor_id: member.id, target_id: member.id },
      { action: 'sign_in.succeeded', actor_type: 'member', actor_id: member.id, target_id: member.id },
    ]);

    // A second sign-in is the same member: no second row, one more sign-in entry.
    const again = await freshContext();
    const second = await again.newPage();
    await signInAtProvider(second, `alice@${domain}`);
    expect(pathname(second)).toBe('/portal/');
    expect(await membersOf(`alice@${domain}`)).toHaveLength(1);
    expect((await auditOf(member.id)).map((e) => e.action)).toEqual(['member.joined', 'sign_in.succeeded', 'sign_in.succeeded']);
    await again.close();
    await context.close();
  });

  it('an existing member (the owner) signs in as themselves, keeping their role', async () => {
    const context = await freshContext();
    const page = await context.newPage();
    await signInAtProvider(page, account.email);
    expect(pathname(page)).toBe('/portal/');
    const members = await membersOf(account.email);
    expect(members).toEqual([{ id: expect.any(String), account_id: account.accountId, role: 'owner' }]);
    await context.close();
  });

  it('SSO required: the password is refused (the page says to use SSO, no session); SSO still signs in', async () => {
    await putSso(account, { issuer: provider.issuer, clientId: CLIENT_ID, domains: [domain], defaultRole: 'developer', required: true }, 200);
    // The owner without MFA: a password alone is what SSO required rules out.
    const context = await freshContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/portal/login`);
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill(PORTAL_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('#login-error').waitFor();
    await expect(page.locator('#login-error').textContent()).resolves.toBe(
      'Your account requires single sign-on: passwords are turned off. Use "Sign in with SSO" with your company\'s identity provider.',
    );
    await screenshot(page, 'sso-required-password-refused');
    expect(pathname(page)).toBe('/portal/login');
    expect(await portalSessionCookie(context)).toBeUndefined();

    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.getByLabel('Work e-mail').fill(`bob@${domain}`);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.locator('input[name="login"]').fill(`bob@${domain}`);
    await page.locator('input[name="password"]').fill('x');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${app.url}/portal/**`);
    expect(pathname(page)).toBe('/portal/');
    expect(await portalSessionCookie(context)).toBeDefined();
    await context.close();
    await putSso(account, { issuer: provider.issuer, clientId: CLIENT_ID, domains: [domain], defaultRole: 'developer', required: false }, 200);
  });

  it('an ID token with a wrong audience, issuer or nonce is refused with a page saying which, and no session', async () => {
    provider.tamper = { aud: 'another-app' };
    await expectRefused(`alice@${domain}`, `alice@${domain}`, 'it was issued for another application (wrong audience)', 'sso-refused-audience');
    provider.tamper = { iss: 'http://127.0.0.1:9' };
    await expectRefused(`alice@${domain}`, `alice@${domain}`, 'it was issued by another provider (wrong issuer)', 'sso-refused-issuer');
    provider.tamper = { nonce: 'a-nonce-of-another-sign-in' };
    await expectRefused(`alice@${domain}`, `alice@${domain}`, 'it belongs to another sign-in (wrong nonce)', 'sso-refused-nonce');
  });

  it('an e-mail outside the allowed domains, an unverified one, or a member of another account is refused, and no member is created', async () => {
    // The login page's domain picks this account; at the provider the person signs in as someone of another domain.
    await expectRefused(
      `alice@${domain}`,
      'mallory@elsewhere.test',
      "The e-mail address the identity provider gave is not in this account's allowed domains",
      'sso-refused-domain',
    );
    expect(await membersOf('mallory@elsewhere.test')).toEqual([]);
    await expectRefused(
      `unverified@${domain}`,
      `unverified@${domain}`,
      'The identity provider says this e-mail address is not verified',
      'sso-refused-unverified',
    );
    expect(await membersOf(`unverified@${domain}`)).toEqual([]);

    // taken@ is a member of another account (invited there before this account's SSO was set up).
    const other = await portalSession(app, `other-owner-${randomBytes(3).toString('hex')}@example.com`);
    const taken = await addMember(app, other.apiKey, `taken@${domain}`, 'viewer');
    await expectRefused(
      `taken@${domain}`,
      `taken@${domain}`,
      'This e-mail address is a member of another account: it cannot join this one',
      'sso-refused-other-account',
    );
    expect(await membersOf(`taken@${domain}`)).toEqual([{ id: taken.memberId, account_id: other.accountId, role: 'viewer' }]);
  });

  it("an answer meant for another browser is refused (CSRF): the attacker's callback URL opened in the victim's browser", async () => {
    // The attacker signs in in their own browser and keeps the answer (the callback URL with its code) instead of using it:
    // their flow cookie dropped, their callback opens nothing and the code stays unused.
    const attacker = await freshContext();
    const attackerPage = await attacker.newPage();
    await attackerPage.goto(`${app.url}/portal/sso`);
    await attackerPage.getByLabel('Work e-mail').fill(`alice@${domain}`);
    await attackerPage.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await attackerPage.locator('input[name="login"]').fill(`alice@${domain}`);
    await attackerPage.locator('input[name="password"]').fill('x');
    await attackerPage.getByRole('button', { name: 'Sign-in' }).click();
    await attacker.clearCookies({ name: 'portal_sso' });
    const callback = attackerPage.waitForRequest((r) => r.url().startsWith(`${app.url}/portal/sso/callback?`));
    await attackerPage.getByRole('button', { name: 'Continue' }).click();
    const stolen = (await callback).url();
    expect(stolen).toMatch(/\/portal\/sso\/callback\?code=/);
    await expect(attackerPage.locator('main').textContent()).resolves.toContain('This sign-in was not started in this browser');

    // The victim started a sign-in of their own: the stolen answer's state is not theirs.
    const victim = await freshContext();
    const page = await victim.newPage();
    await page.goto(`${app.url}/portal/sso`);
    await page.getByLabel('Work e-mail').fill(`bob@${domain}`);
    await page.getByRole('button', { name: 'Continue to your identity provider' }).click();
    await page.waitForURL(`${provider.issuer}/**`);
    await page.goto(stolen);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Single sign-on refused');
    await expect(page.locator('main').textContent()).resolves.toContain('state mismatch');
    await screenshot(page, 'sso-refused-state');
    expect(await portalSessionCookie(victim)).toBeUndefined();
    await victim.close();
    await attacker.close();
  });

  it('the SSO pages (e-mail form, settings) have no serious axe-core violation and fit 390 px', async () => {
    const context = await session.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const inspect = async (name: string) => {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        expect({ name, width, violations: await axeViolations(page) }).toEqual({ name, width, violations: [] });
        if (width === 390) expect({ name, scrollWidth: await scrollWidth(page) }).toEqual({ name, scrollWidth: 390 });
        await screenshot(page, `${name}-${width}`);
      }
    };
    await page.goto(`${app.url}/portal/sso`);
    await inspect('sso-email-form');
    await page.goto(`${app.url}/portal/login`);
    await page.getByLabel('E-mail').fill(account.email);
    await page.getByLabel('Password').fill(PORTAL_PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${app.url}/portal/`);
    await page.goto(`${app.url}/portal/sso/settings`);
    await expect(page.locator('#redirect-uri').textContent()).resolves.toBe(`${app.url}/portal/sso/callback`);
    await expect(page.getByLabel('Issuer URL').inputValue()).resolves.toBe(provider.issuer);
    await expect(page.getByLabel(/^Client secret/).inputValue()).resolves.toBe('');
    await inspect('sso-settings');
    await context.close();
  });
});

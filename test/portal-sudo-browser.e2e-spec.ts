import type { Page } from 'playwright-core';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, openProfile, screenshot } from './support/browser.js';
import { act, axeViolations, signUpInBrowser } from './support/portal-browser.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const PASSWORD = 'a passphrase typed again';
const EMAIL = 'browser-sudo@example.com';

describeInBrowser(`sudo mode and unlock links in a browser: "confirm your password", the unlock page (${target})`, () => {
  let app: TestApp;
  let smtp: SmtpTestServer;
  let session: BrowserSession;

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'Platform <no-reply@example.test>' } });
    session = await openBrowser({ bypassCSP: true });
    await signUpInBrowser(app, session.page, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
    await smtp?.stop();
  });

  /** The same page reached on this server (links are built on PUBLIC_URL). */
  const here = (url: string) => url.replace(/^https?:\/\/[^/]+/, app.url);
  const pathname = (page: Page) => new URL(page.url()).pathname;
  const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
  /** Every session of the member typed its password more than 5 minutes ago. */
  const stale = () =>
    app.query(
      `UPDATE portal_sessions SET reauthenticated_at = now() - interval '5 minutes 1 second' WHERE member_id = (SELECT id FROM members WHERE email = $1)`,
      [EMAIL],
    );

  /** Checks the page at 1280 and 390 px wide: no serious or critical axe-core violation, no horizontal scroll at 390; saves both screenshots. */
  async function inspect(page: Page, name: string): Promise<void> {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      expect({ name, width, violations: await axeViolations(page) }).toEqual({ name, width, violations: [] });
      if (width === 390) {
        const widths = await page.evaluate(() => {
          const w = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
          return { scrollWidth: w.document.documentElement.scrollWidth, viewport: w.innerWidth };
        });
        expect({ name, fits: widths.scrollWidth <= widths.viewport, ...widths }).toMatchObject({ name, fits: true });
      }
      await screenshot(page, `${name}-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('asks for the password again before two-factor sign-in changes, says a wrong one beside the field, and returns to the page', async () => {
    const { page } = session;
    await stale();
    await page.goto(`${app.url}/portal/account/mfa`);
    await expect(h1(page)).resolves.toBe('Two-factor sign-in');
    await expect(page.getByRole('button', { name: 'Turn on two-factor sign-in' }).count()).resolves.toBe(0);
    await inspect(page, 'portal-mfa-needs-password');
    await act(page, page.getByRole('link', { name: 'Confirm your password' }));
    expect(pathname(page)).toBe('/portal/account/confirm-password');
    await expect(h1(page)).resolves.toBe('Confirm your password');
    await inspect(page, 'portal-confirm-password');

    await page.getByLabel('Password').fill('not the passphrase at all');
    await act(page, page.getByRole('button', { name: 'Confirm password' }));
    const field = page.getByLabel('Password');
    await expect(field.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(field.getAttribute('aria-describedby')).resolves.toBe('password-error');
    await expect(page.locator('#password + #password-error').textContent()).resolves.toBe('That is not your password.');
    await inspect(page, 'portal-confirm-password-error');

    await page.getByLabel('Password').fill(PASSWORD);
    await act(page, page.getByRole('button', { name: 'Confirm password' }));
    expect(pathname(page)).toBe('/portal/account/mfa');
    await act(page, page.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    await expect(page.locator('.qr svg').count()).resolves.toBe(1);

    // A form posted after the 5 minutes (a page left open): the same page first, then back.
    await page.goto(`${app.url}/portal/account/mfa`);
    await stale();
    await act(page, page.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    expect(pathname(page)).toBe('/portal/account/confirm-password');
    await page.getByLabel('Password').fill(PASSWORD);
    await act(page, page.getByRole('button', { name: 'Confirm password' }));
    expect(pathname(page)).toBe('/portal/account/mfa');
  });

  it('does the same without JavaScript', async () => {
    const noScript = await openProfile(session.browser, { javaScriptEnabled: false });
    try {
      const { page } = noScript;
      await page.goto(`${app.url}/portal/login`);
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForURL(`${app.url}/portal/`), page.getByRole('button', { name: 'Sign in' }).click()]);
      await stale();
      await page.goto(`${app.url}/portal/account/mfa`);
      await Promise.all([page.waitForURL('**/portal/account/confirm-password?**'), page.getByRole('link', { name: 'Confirm your password' }).click()]);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForURL('**/portal/account/mfa'), page.getByRole('button', { name: 'Confirm password' }).click()]);
      await expect(page.getByRole('button', { name: 'Turn on two-factor sign-in' }).count()).resolves.toBe(1);
    } finally {
      await noScript.close();
    }
  });

  it('unlocks sign-in from the e-mailed link: a page with one button, then the sign-in works', async () => {
    const other = await openProfile(session.browser, { bypassCSP: true });
    try {
      const { page } = other;
      const signIn = async (password: string) => {
        await page.goto(`${app.url}/portal/login`);
        await page.getByLabel('E-mail').fill(EMAIL);
        await page.getByLabel('Password').fill(password);
        await act(page, page.getByRole('button', { name: 'Sign in' }));
      };
      for (let i = 0; i < 5; i++) await signIn('a wrong passphrase');
      await expect(page.getByRole('alert').textContent()).resolves.toContain('a link that unlocks it is on its way there');
      await inspect(page, 'portal-sign-in-locked');
      const mail = await smtp.nextTo(EMAIL);
      expect(mail.subject).toBe('Sign-in to your developer portal was locked');
      await page.goto(here(/\S+\/portal\/unlock\/[A-Za-z0-9_-]+/.exec(mail.text)![0]));
      await expect(h1(page)).resolves.toBe('Unlock sign-in');
      await inspect(page, 'portal-unlock');
      await act(page, page.getByRole('button', { name: 'Unlock sign-in' }));
      await expect(h1(page)).resolves.toBe('Sign-in unlocked');
      await inspect(page, 'portal-unlocked');
      await signIn(PASSWORD);
      expect(pathname(page)).toBe('/portal/');
    } finally {
      await other.close();
    }
  });
});

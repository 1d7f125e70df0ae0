import type { Page } from 'playwright-core';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, openProfile, screenshot } from './support/browser.js';
import { act, axeViolations } from './support/portal-browser.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';

const FIRST = 'correct horse battery staple';
const SECOND = 'a second long passphrase';
const THIRD = 'the third passphrase, reset';
const FOURTH = 'a fourth one without script';
const EMAIL = 'browser-account@example.com';

describeInBrowser(`portal account pages in a browser: password change and reset by e-mail (${target})`, () => {
  let app: TestApp;
  let smtp: SmtpTestServer;
  let session: BrowserSession;

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'Platform <no-reply@example.test>' } });
    session = await openBrowser({ bypassCSP: true });
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
    await smtp?.stop();
  });

  /** The same page reached on this server (links are built on PUBLIC_URL, http://localhost:<port>). */
  const here = (url: string) => url.replace(/^https?:\/\/[^/]+/, app.url);
  const pathname = (page: Page) => new URL(page.url()).pathname;

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

  it('changes the password (a wrong current one shown beside its field), signs out everywhere, and resets it through the e-mailed link', async () => {
    const { page } = session;
    const created = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: EMAIL }).expect(201);
    await page.goto(here((created.body as { portalInviteUrl: string }).portalInviteUrl));
    await page.getByLabel('New password').fill(FIRST);
    await page.getByLabel('The same again').fill(FIRST);
    await act(page, page.getByRole('button', { name: 'Set password and sign in' }));
    expect(pathname(page)).toBe('/portal/');

    // The account page: a wrong current password is refused beside its field.
    await page.goto(`${app.url}/portal/account`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your account');
    await expect(page.getByText(EMAIL).count()).resolves.toBe(1);
    await inspect(page, 'portal-account');
    await page.getByLabel('Current password').fill('not my password at all');
    await page.getByLabel(/^New password \(at least/).fill(SECOND);
    await page.getByLabel('New password again').fill(SECOND);
    await act(page, page.getByRole('button', { name: 'Change password' }));
    const current = page.getByLabel('Current password');
    await expect(current.getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(page.locator('#current-error').textContent()).resolves.toBe('That is not your current password.');
    // "Beside the field": the message is the element right after the input, and the input names it.
    await expect(current.getAttribute('aria-describedby')).resolves.toBe('current-error');
    await expect(page.locator('#current + #current-error').count()).resolves.toBe(1);
    await inspect(page, 'portal-account-error');

    await page.getByLabel('Current password').fill(FIRST);
    await page.getByLabel(/^New password \(at least/).fill(SECOND);
    await page.getByLabel('New password again').fill(SECOND);
    await act(page, page.getByRole('button', { name: 'Change password' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Your password was changed');
    expect(pathname(page)).toBe('/portal/account');

    // Sign out everywhere: back at the sign-in page, the session gone.
    await act(page, page.getByRole('button', { name: 'Sign out everywhere' }));
    expect(pathname(page)).toBe('/portal/login');
    await page.goto(`${app.url}/portal/account`);
    expect(pathname(page)).toBe('/portal/login');

    // Forgot password: from the sign-in page's link, the e-mail, the link, a new password.
    await act(page, page.getByRole('link', { name: 'Forgot your password?' }));
    expect(pathname(page)).toBe('/portal/forgot-password');
    await inspect(page, 'portal-forgot-password');
    await page.getByLabel('E-mail').fill(EMAIL);
    await act(page, page.getByRole('button', { name: 'E-mail me a reset link' }));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Check your e-mail');
    await inspect(page, 'portal-forgot-password-sent');
    const mail = await smtp.nextTo(EMAIL);
    expect(mail.subject).toBe('Reset your developer portal password');
    const link = /\S+\/portal\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)![0];

    await page.goto(here(link));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Set a new password');
    await inspect(page, 'portal-reset-password');
    await page.getByLabel(/^New password \(at least/).fill(THIRD);
    await page.getByLabel('New password again').fill(THIRD);
    await act(page, page.getByRole('button', { name: 'Set new password' }));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Password changed');
    await inspect(page, 'portal-reset-password-done');

    // The link is used up.
    await page.goto(here(link));
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Link not valid');

    // The old password no longer signs in, the new one does.
    await page.goto(`${app.url}/portal/login`);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(SECOND);
    await act(page, page.getByRole('button', { name: 'Sign in' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain('do not match');
    await page.getByLabel('Password').fill(THIRD);
    await act(page, page.getByRole('button', { name: 'Sign in' }));
    expect(pathname(page)).toBe('/portal/');
  });

  it('does the same without JavaScript: plain forms, redirects after each change', async () => {
    const noScript = await openProfile(session.browser, { javaScriptEnabled: false });
    try {
      const { page } = noScript;
      await page.goto(`${app.url}/portal/login`);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await page.waitForURL('**/portal/forgot-password');
      await page.getByLabel('E-mail').fill(EMAIL);
      await Promise.all([page.waitForURL('**/portal/forgot-password/sent'), page.getByRole('button', { name: 'E-mail me a reset link' }).click()]);
      const link = /\S+\/portal\/reset-password\/[A-Za-z0-9_-]+/.exec((await smtp.nextTo(EMAIL)).text)![0];
      await page.goto(here(link));
      await page.getByLabel(/^New password \(at least/).fill(FOURTH);
      await page.getByLabel('New password again').fill(FOURTH);
      await Promise.all([page.waitForURL('**/portal/reset-password/done'), page.getByRole('button', { name: 'Set new password' }).click()]);

      await page.goto(`${app.url}/portal/login`);
      await page.getByLabel('E-mail').fill(EMAIL);
      await page.getByLabel('Password').fill(FOURTH);
      await Promise.all([page.waitForURL(`${app.url}/portal/`), page.getByRole('button', { name: 'Sign in' }).click()]);
      await page.goto(`${app.url}/portal/account`);
      await page.getByLabel('Current password').fill(FOURTH);
      await page.getByLabel(/^New password \(at least/).fill(FIRST);
      await page.getByLabel('New password again').fill(FIRST);
      await Promise.all([page.waitForURL('**/portal/account?done=password'), page.getByRole('button', { name: 'Change password' }).click()]);
      await expect(page.getByRole('status').textContent()).resolves.toContain('Your password was changed');
    } finally {
      await noScript.close();
    }
  });
});

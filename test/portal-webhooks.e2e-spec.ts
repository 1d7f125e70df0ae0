import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { act, expectFitsPhoneWidth, seriousViolations } from './support/portal-browser.js';
import { csrfOf, portalSession, PortalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { Receiver, until } from './support/webhook-receiver.js';

describeInBrowser(`webhooks in the portal (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let signedIn: PortalSession;
  let endpointPath: string;
  const receiver = new Receiver();
  const DOWN = 'Database is down <b>maintenance</b> — désolé\nline 2';

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50' } });
    session = await openBrowser({ bypassCSP: true });
    signedIn = await portalSession(app, 'webhooks-dev@example.com');
    const [name, value] = signedIn.cookie.split('=');
    await session.context.addCookies([{ name, value, url: `${app.url}/portal/` }]);
  });
  afterAll(async () => {
    await session?.close();
    await app.close();
    await receiver.stop();
  });

  const deliveries = () => session.page.getByRole('article');
  const texts = async () => (await deliveries().allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
  /** Reloads the endpoint's page until its delivery log satisfies `ok`. */
  const logUntil = (ok: (log: string[]) => boolean, what: string) =>
    until(
      async () => {
        await session.page.goto(`${app.url}${endpointPath}`);
        return ok(await texts());
      },
      10_000,
      what,
    );

  it('tells what to do with no endpoint, then shows each attempt of a failing delivery: time, status, duration, the answer, the next retry, the payload', async () => {
    const { page } = session;
    await page.goto(`${app.url}/portal/webhooks`);
    await expect(page.getByRole('region', { name: 'Endpoints' }).textContent()).resolves.toMatch(
      /No endpoints yet\.[\s\S]*curl -X POST http:\/\/[^\s]+\/v1\/webhook-endpoints/,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-webhooks-empty');

    receiver.modes.set('/down', { status: 500, body: DOWN });
    await page.getByLabel('URL').fill(`${receiver.url}/down`);
    await act(page, page.getByRole('button', { name: 'Add endpoint' }));
    await act(page, page.getByRole('link', { name: 'Open the endpoint' }));
    endpointPath = new URL(page.url()).pathname;
    await expect(page.getByRole('region', { name: 'Delivery log' }).textContent()).resolves.toContain('Nothing delivered yet');

    // A test event the receiver refuses 4 times (the test schedule: 50, 150, 350 ms).
    await act(page, page.getByRole('button', { name: 'Send test event' }));
    await until(() => receiver.at('/down').length === 4, 10_000, 'four failed tries');
    await logUntil((log) => log.length === 1 && log[0].includes('Failed'), 'the delivery to fail');
    const [failed] = await texts();
    expect(failed).toMatch(/^webhook\.test Failed Resend Event raised \w{3} \d+, \d{4}, \d\d:\d\d:\d\d UTC · del_\w+/);
    // Each attempt: its number, time, status with its name, duration and when the next one was due; the last has none.
    const attempts = await page
      .getByRole('table', { name: /^Attempts of webhook\.test/ })
      .getByRole('row')
      .allInnerTexts();
    const rows = attempts.map((t) => t.replace(/\s+/g, ' ').trim()).filter((t) => t.startsWith('#'));
    expect(rows).toEqual([
      expect.stringMatching(/^#1 \d\d:\d\d:\d\d 500 Internal Server Error \d+ ms \d\d:\d\d:\d\d$/),
      expect.stringMatching(/^#2 \d\d:\d\d:\d\d 500 Internal Server Error \d+ ms \d\d:\d\d:\d\d$/),
      expect.stringMatching(/^#3 \d\d:\d\d:\d\d 500 Internal Server Error \d+ ms \d\d:\d\d:\d\d$/),
      expect.stringMatching(/^#4 \d\d:\d\d:\d\d 500 Internal Server Error \d+ ms —$/),
    ]);
    // The answer's first KiB, as text (its markup escaped), shown for the last attempt and folded for the others.
    const excerpts = page.locator('pre.excerpt');
    await expect(excerpts.count()).resolves.toBe(4);
    await expect(excerpts.nth(3).isVisible()).resolves.toBe(true);
    await expect(excerpts.nth(3).textContent()).resolves.toBe(DOWN);
    await expect(excerpts.nth(0).isVisible()).resolves.toBe(false);
    await expect(page.locator('pre.excerpt b').count()).resolves.toBe(0);
    // The payload, indented.
    await page.getByText('Event payload').click();
    await expect(page.locator('details.payload pre').textContent()).resolves.toMatch(/^\{\n {2}"id": "evt_\w+",\n {2}"event": "webhook\.test",/);

    // A second event the receiver asks to come back for in an hour: pending, its next retry an hour on.
    receiver.modes.set('/down', { status: 503, headers: { 'retry-after': '3600' }, body: 'Come back in an hour' });
    await act(page, page.getByRole('button', { name: 'Send test event' }));
    await logUntil((log) => log.length === 2 && log[0].includes('Pending') && log[0].includes('#1'), 'the second delivery to wait');
    const [pending] = await texts();
    expect(pending).toMatch(/Next retry: \w{3} \d+, \d{4}, \d\d:\d\d:\d\d UTC \(in (59|60) min\)/);
    expect(pending).toMatch(/#1 \d\d:\d\d:\d\d 503 Service Unavailable \d+ ms (\w{3} \d+, )?\d\d:\d\d:\d\d Response body \(first 1 KiB\) Come back in an hour/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-webhook-log');
  });

  it('resends one delivery (a new attempt in the log), and re-sends every failed one since a time', async () => {
    const { page } = session;
    receiver.modes.set('/down', 'ok');
    await page.goto(`${app.url}${endpointPath}`);
    const failedOne = page.getByRole('article').filter({ hasText: 'Failed' });
    await act(page, failedOne.getByRole('button', { name: /^Resend webhook\.test of / }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Sent again');
    await until(() => receiver.at('/down').length === 6, 10_000, 'the resent delivery');
    expect(receiver.at('/down')[5].headers['x-service-delivery-attempt']).toBe('5');
    await logUntil((log) => log[1]?.includes('Succeeded') ?? false, 'the resent delivery to succeed');
    const [, resent] = await texts();
    expect(resent).toMatch(/#4 \d\d:\d\d:\d\d 500 Internal Server Error \d+ ms — Response body \(first 1 KiB\)[\s\S]*#5 \d\d:\d\d:\d\d 200 OK \d+ ms —/);
    expect(
      (await app.query(`SELECT status, attempt_count FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at`, [endpointPath.split('/').pop()]))[0],
    ).toEqual({ status: 'succeeded', attempt_count: 5 });

    // Down again: a third event fails its 4 tries; back up, everything failed since an hour ago is sent again.
    receiver.modes.set('/down', { status: 500, body: DOWN });
    await act(page, page.getByRole('button', { name: 'Send test event' }));
    await until(() => receiver.at('/down').length === 10, 10_000, 'four more failed tries');
    await logUntil((log) => log.length === 3 && log[0].includes('Failed'), 'the third delivery to fail');
    receiver.modes.set('/down', 'ok');
    const hourAgo = new Date(Date.now() - 3600_000).toISOString().slice(0, 16);
    await page.getByLabel(/^Re-send the failed deliveries of events since/).fill(hourAgo);
    await act(page, page.getByRole('button', { name: 'Re-send failed' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('on their way again');
    await until(() => receiver.at('/down').length === 11, 10_000, 'the recovered delivery');
    await logUntil((log) => log[0].includes('Succeeded'), 'the recovered delivery to succeed');

    // The list: each endpoint's success rate over 7 days (settled deliveries; the one waiting an hour is pending).
    await page.goto(`${app.url}/portal/webhooks`);
    await expect(page.getByRole('row', { name: /\/down/ }).innerText()).resolves.toMatch(/100 %\s+2 of 2 delivered, 1 pending/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'portal-webhooks');
  });

  it('refuses a recover time out of range, and forms without their CSRF token', async () => {
    const page = await app.http().get(endpointPath).set('cookie', signedIn.cookie).expect(200);
    const csrf = csrfOf(page.text);
    const future = new Date(Date.now() + 3600_000).toISOString().slice(0, 16);
    const refused = await app.http().post(`${endpointPath}/recover`).set('cookie', signedIn.cookie).type('form').send({ _csrf: csrf, since: future });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/role="alert" id="recover-error">That time is in the future/);
    const old = new Date(Date.now() - 15 * 86_400_000).toISOString().slice(0, 16);
    const tooOld = await app.http().post(`${endpointPath}/recover`).set('cookie', signedIn.cookie).type('form').send({ _csrf: csrf, since: old });
    expect(tooOld.text).toContain('from the last 14 days only');
    const forged = await app.http().post(`${endpointPath}/recover`).set('cookie', signedIn.cookie).type('form').send({ since: future });
    expect(forged.status).toBe(403);
  });

  it('fits a 390 px wide screen without sideways scrolling', async () => {
    await expectFitsPhoneWidth(session.page, app.url, [
      ['/portal/webhooks', 'portal-webhooks-390'],
      [endpointPath, 'portal-webhook-log-390'],
    ]);
  });
});

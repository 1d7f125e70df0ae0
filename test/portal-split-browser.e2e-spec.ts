import type { Page } from 'playwright-core';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { act, axeViolations, signUpInBrowser } from './support/portal-browser.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const PASSWORD = 'a passphrase for split tests';

describeInBrowser(`the portal's split tests in a browser: weights on the deployments list, results, publish the winner (${target})`, () => {
  let app: TestApp;
  let session: BrowserSession;
  let apiKey: string;
  let appId: string;
  const deployments: string[] = [];

  const api = (method: 'get' | 'post' | 'put', path: string, body?: object) => {
    const req = app.http()[method](path).set('authorization', `Bearer ${apiKey}`);
    return body ? req.send(body) : req;
  };

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    session = await openBrowser({ bypassCSP: true });
    apiKey = (await signUpInBrowser(app, session.page, 'split-browser@example.com', PASSWORD)).apiKey;
    appId = (await api('post', '/v1/apps', { name: 'Split in the portal', slug: 'split-portal' }).expect(201)).body.appId;
    for (const headline of ['Cook together', 'Recipes for everyone']) {
      const current = (await api('get', `/v1/apps/${appId}/landing-page`).expect(200)).body.page;
      await api('put', `/v1/apps/${appId}/landing-page`, { ...current, hero: { ...current.hero, headline } }).expect(200);
      deployments.push((await api('post', '/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body.deploymentId);
    }
    await api('post', `/v1/apps/${appId}/publish`, { deploymentId: deployments[0] }).expect(200);
  });
  afterAll(async () => {
    await session?.close();
    await app?.close();
  });

  const weight = (page: Page, deploymentId: string) => page.getByLabel(`Split weight of ${deploymentId} (percent)`);
  const cells = (page: Page) =>
    page
      .locator('table.split-results tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) =>
          [...(row as unknown as { querySelectorAll(s: string): Array<{ textContent: string | null }> }).querySelectorAll('th, td')].map((c) =>
            (c.textContent ?? '').trim(),
          ),
        ),
      );

  it('starts a test from the deployments list, shows conversion per variant, and publishes the winner', async () => {
    const { page } = session;
    await page.goto(`${app.url}/portal/apps/${appId}`);
    // Weights that do not sum to 100: the page says so, keeping what was typed.
    await weight(page, deployments[0]).fill('60');
    await weight(page, deployments[1]).fill('30');
    await act(page, page.getByRole('button', { name: 'Start split test' }));
    await expect(page.getByRole('alert').textContent()).resolves.toContain('variants weights must sum to 100 (they sum to 90)');
    await expect(weight(page, deployments[1]).inputValue()).resolves.toBe('30');
    await weight(page, deployments[1]).fill('40');
    await act(page, page.getByRole('button', { name: 'Start split test' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Split test started');
    const split = (await api('get', `/v1/apps/${appId}/split`).expect(200)).body;
    expect(split.variants.map((v: { deploymentId: string; weight: number }) => [v.deploymentId, v.weight])).toEqual([
      [deployments[0], 60],
      [deployments[1], 40],
    ]);

    // Visitors of the public address, each served a variant: the card counts them per variant.
    const seen = new Map<string, number>();
    for (let i = 0; i < 30; i++) {
      const res = await app
        .http()
        .get('/p/split-portal/')
        .set({ 'x-forwarded-for': `198.18.7.${i}`, 'user-agent': `Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.${i}` })
        .expect(200);
      const shown = res.text.includes('Cook together') ? deployments[0] : deployments[1];
      seen.set(shown, (seen.get(shown) ?? 0) + 1);
    }
    await app.server.app.get(AnalyticsBuffer).flush();
    await page.goto(`${app.url}/portal/apps/${appId}`);
    const rows = await cells(page);
    // No sign-ups yet: nothing to compare, so the chance to beat the first is "—", not a 50 % coin toss.
    expect(rows.map((r) => [r[0].replace(/\s*\(first\)$/, ''), r[1], r[2], r[3], r[4], r[5]])).toEqual([
      [deployments[0], '60 %', String(seen.get(deployments[0]) ?? 0), '0', '0.0 %', '—'],
      [deployments[1], '40 %', String(seen.get(deployments[1]) ?? 0), '0', '0.0 %', '—'],
    ]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'portal-split-results');

    await act(page, page.getByRole('button', { name: `Publish the winner ${deployments[1]}` }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Published');
    await expect(page.getByRole('heading', { name: 'Split test' }).count()).resolves.toBe(0);
    expect((await api('get', `/v1/apps/${appId}`).expect(200)).body.publishedDeploymentId).toBe(deployments[1]);
    expect((await api('get', `/v1/apps/${appId}/split`).expect(404)).body.reason).toBe('split_not_found');
  });

  it('ends a test with its button: the published deployment serves everyone again', async () => {
    const { page } = session;
    await page.goto(`${app.url}/portal/apps/${appId}`);
    await weight(page, deployments[0]).fill('50');
    await weight(page, deployments[1]).fill('50');
    await act(page, page.getByRole('button', { name: 'Start split test' }));
    await expect(page.getByRole('heading', { name: 'Split test' }).count()).resolves.toBe(1);
    // The published deployment is the first variant.
    expect((await cells(page))[0][0]).toBe(`${deployments[1]} (first)`);
    await act(page, page.getByRole('button', { name: 'End the test' }));
    await expect(page.getByRole('status').textContent()).resolves.toContain('Split test ended');
    await expect(page.getByRole('heading', { name: 'Split test' }).count()).resolves.toBe(0);
    await api('get', `/v1/apps/${appId}/split`).expect(404);
  });
});

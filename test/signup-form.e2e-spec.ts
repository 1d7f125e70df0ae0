import { SignupTokens } from '../src/sites/signup-token.js';
import { SignupService } from '../src/sites/signup.service.js';
import { ApiClient, EventRecorder, EventRecorderModule, newAccountClient } from './support/api-client.js';
import { describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { target } from './support/test-app.js';
import { appWithReceiver, until } from './support/webhook-receiver.js';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe(`the landing page's sign-up form (${target})`, () => {
  // TRUST_PROXY: the tests play visitors from several IPs through X-Forwarded-For.
  const setup = appWithReceiver({
    modules: [EventRecorderModule],
    env: { TRUST_PROXY: '127.0.0.1' },
  });
  let dev: ApiClient;
  let events: EventRecorder;
  let tokens: SignupTokens;

  beforeAll(async () => {
    events = setup.app.server.app.get(EventRecorder);
    tokens = setup.app.server.app.get(SignupTokens);
    dev = await newAccountClient(setup.app);
  });

  /** A fresh app with a webhook endpoint and a deployed page; `url` is its page. */
  async function deployedApp(name: string, page?: object) {
    const { appId } = (await dev.post('/v1/apps', { name, description: `About ${name}.` }).expect(201)).body;
    if (page) await dev.put(`/v1/apps/${appId}/landing-page`, page).expect(200);
    const deployment = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
    return { appId, deploymentId: deployment.deploymentId as string, path: `/sites/${deployment.deploymentId}/` };
  }

  /** A token rendered `ageMs` ago, as if a person had been reading the page that long. */
  const tokenFor = (deploymentId: string, ageMs = 5000) => tokens.issue(deploymentId, Date.now() - ageMs);
  const post = (path: string, fields: Record<string, string>, ip = '203.0.113.10') =>
    setup.app.http().post(`${path}signup`).set('content-type', 'application/x-www-form-urlencoded').set('x-forwarded-for', ip).send(form(fields));
  const usersOf = (appId: string) =>
    setup.app.query<{ id: string; email: string }>('SELECT id, email FROM users WHERE app_id = $1 ORDER BY created_at', [appId]);
  const signupsOf = async (appId: string) => (await events.of('user.created')).filter((e) => e.data.appId === appId);
  /** Sign-ups are stored after their 303 went out: waits for those answered so far. */
  const settled = () => setup.app.server.app.get(SignupService).settled();
  const spamCount = async (reason: string) => {
    const metrics = (await setup.app.http().get('/metrics').expect(200)).text;
    return Number(new RegExp(`signup_spam_dropped_total\\{reason="${reason}"\\} (\\d+)`).exec(metrics)?.[1] ?? 0);
  };

  it('signs a visitor up: 303 to the thanks page, one user through the users service, user.created from the landing page', async () => {
    const site = await deployedApp('Signup one');
    const page = await setup.app.http().get(site.path).expect(200);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    const token = /name="token" value="([^"]+)"/.exec(page.text)![1];
    expect(token.startsWith(`${site.deploymentId}.`)).toBe(true);
    // The real token of the page, once a person would have read it.
    await new Promise((r) => setTimeout(r, 2100));
    const res = await post(site.path, { email: '  Ada@Example.com ', website: '', token }).expect(303);
    expect(res.headers.location).toBe(`${site.path}thanks`);
    await settled();
    expect(await usersOf(site.appId)).toEqual([{ id: expect.stringMatching(/^usr_/), email: 'ada@example.com' }]);
    const raised = await signupsOf(site.appId);
    expect(raised.map((e) => e.data)).toEqual([
      { id: expect.any(String), email: 'ada@example.com', appId: site.appId, source: 'landing-page', deploymentId: site.deploymentId },
    ]);
    const thanks = await setup.app.http().get(res.headers.location).set('accept', 'text/html').expect(200);
    expect(thanks.text).toContain('Thanks! You&#39;re on the list.');
  });

  it('answers the same e-mail again with the same 303 and nothing else: no second user, no second event', async () => {
    const site = await deployedApp('Signup twice');
    // A token of nearly 2 hours still counts.
    const first = await post(site.path, { email: 'same@example.com', website: '', token: tokenFor(site.deploymentId, 119 * 60_000) }).expect(303);
    await settled();
    const again = await post(site.path, { email: 'SAME@example.com', website: '', token: tokenFor(site.deploymentId) }).expect(303);
    // Nothing in the answer tells them apart: status, headers (but the date and the request's id) and body.
    const { date: _firstDate, 'x-request-id': _firstId, ...firstHeaders } = first.headers;
    const { date: _againDate, 'x-request-id': _againId, ...againHeaders } = again.headers;
    expect(againHeaders).toEqual(firstHeaders);
    expect(again.text).toBe(first.text);
    await settled();
    expect(await usersOf(site.appId)).toHaveLength(1);
    expect(await signupsOf(site.appId)).toHaveLength(1);
  });

  it('answers before the user is stored, so a known and a new e-mail take the same time to answer', async () => {
    const site = await deployedApp('Signup timing');
    await post(site.path, { email: 'known@example.com', website: '', token: tokenFor(site.deploymentId) }).expect(303);
    await settled();
    // While every sign-up's storing is held back, both answers still come: neither waits on it.
    const signups = setup.app.server.app.get(SignupService) as unknown as { create: (...args: unknown[]) => Promise<void> };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const create = signups.create.bind(signups);
    signups.create = async (...args: unknown[]) => {
      await gate;
      return create(...args);
    };
    try {
      const known = await post(site.path, { email: 'known@example.com', website: '', token: tokenFor(site.deploymentId) }, '203.0.113.20').expect(303);
      const fresh = await post(site.path, { email: 'fresh@example.com', website: '', token: tokenFor(site.deploymentId) }, '203.0.113.21').expect(303);
      expect(fresh.headers.location).toBe(known.headers.location);
      expect(fresh.text).toBe(known.text);
      expect((await usersOf(site.appId)).map((u) => u.email)).toEqual(['known@example.com']);
    } finally {
      release();
      delete (signups as Partial<typeof signups>).create; // the prototype's again
    }
    await settled();
    expect((await usersOf(site.appId)).map((u) => u.email)).toEqual(['known@example.com', 'fresh@example.com']);
    expect((await signupsOf(site.appId)).map((e) => e.data.email)).toEqual(['known@example.com', 'fresh@example.com']);
  });

  it.each([
    ['honeypot', (dep: string) => ({ email: 'bot1@example.com', website: 'http://spam.example', token: tokenFor(dep) })],
    ['token_missing', () => ({ email: 'bot2@example.com', website: '' })],
    ['token_forged', (dep: string) => ({ email: 'bot3@example.com', website: '', token: `${dep}.${Date.now().toString(36)}.forged` })],
    ['token_expired', (dep: string) => ({ email: 'bot4@example.com', website: '', token: tokenFor(dep, 2 * 3600 * 1000 + 60_000) })],
    ['too_fast', (dep: string) => ({ email: 'bot5@example.com', website: '', token: tokenFor(dep, 100) })],
  ])('drops spam silently (%s): the same 303, nothing stored, counted in /metrics', async (reason, fields) => {
    const site = await deployedApp(`Spam ${reason}`);
    const before = await spamCount(reason);
    const res = await post(site.path, fields(site.deploymentId)).expect(303);
    expect(res.headers.location).toBe(`${site.path}thanks`);
    await settled();
    expect(await usersOf(site.appId)).toEqual([]);
    expect(await signupsOf(site.appId)).toEqual([]);
    expect(await spamCount(reason)).toBe(before + 1);
  });

  it('shows the page again for an invalid e-mail: 400, the message next to the field, the typed value kept (escaped)', async () => {
    const site = await deployedApp('Signup typo');
    const typed = `ada@<b>example`;
    const res = await post(site.path, { email: typed, website: '', token: tokenFor(site.deploymentId) }).expect(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('value="ada@&lt;b&gt;example" aria-invalid="true" aria-describedby="email-error"');
    expect(res.text).toContain('Enter an e-mail address like name@example.com');
    expect(res.text).not.toContain('<b>');
    expect(await usersOf(site.appId)).toEqual([]);
  });

  it('answers a flood from one visitor with 429 after 5 sign-ups a minute to one app (any of its deployments), without slowing other visitors', async () => {
    const site = await deployedApp('Signup flood');
    // The app's second deployment and its alias count with the first: the limit is per app.
    const second = (await dev.post('/v1/apps/deploy', { appId: site.appId, env: 'staging' }).expect(200)).body.deploymentId as string;
    const addresses = [site.path, `/sites/${second}/`, `/sites/${site.appId}/production/`];
    for (let i = 0; i < 5; i++)
      await post(addresses[i % 3], { email: `flood${i}@example.com`, website: '', token: tokenFor(site.deploymentId) }, '198.51.100.7').expect(303);
    const limited = await post(`/sites/${second}/`, { email: 'flood5@example.com', website: '', token: tokenFor(second) }, '198.51.100.7').expect(429);
    expect(limited.headers['content-type']).toMatch(/^text\/html/);
    expect(limited.text).toContain('Try again in a minute');
    // An IPv6 visitor is one visitor across its /64.
    for (let i = 0; i < 5; i++)
      await post(site.path, { email: `six${i}@example.com`, website: '', token: tokenFor(site.deploymentId) }, `2001:db8:7:7::${i + 1}`).expect(303);
    await post(site.path, { email: 'six5@example.com', website: '', token: tokenFor(site.deploymentId) }, '2001:db8:7:7:ffff::1').expect(429);
    await post(site.path, { email: 'six6@example.com', website: '', token: tokenFor(site.deploymentId) }, '2001:db8:7:8::1').expect(303);
    await settled();
    expect(
      (await usersOf(site.appId))
        .map((u) => u.email)
        .filter((e) => e.startsWith('flood'))
        .sort(),
    ).toEqual(['flood0@example.com', 'flood1@example.com', 'flood2@example.com', 'flood3@example.com', 'flood4@example.com']);
    // The same visitor may still sign up to another app.
    const other = await deployedApp('Signup flood elsewhere');
    await post(other.path, { email: 'flood5@example.com', website: '', token: tokenFor(other.deploymentId) }, '198.51.100.7').expect(303);
  });

  it('answers 404 when the snapshot has the form turned off, or the app was deleted', async () => {
    const off = await deployedApp('Signup off', {
      schemaVersion: 1,
      hero: { headline: 'No form', subheadline: '', ctaLabel: 'Go' },
      features: [],
      faq: [],
      cta: { headline: '' },
      signup: { enabled: false, buttonLabel: 'Join', consentText: '', successMessage: 'Thanks' },
      theme: { accent: '#5146E5' },
    });
    expect((await setup.app.http().get(off.path).expect(200)).text).not.toContain('<form');
    await post(off.path, { email: 'x@example.com', website: '', token: tokenFor(off.deploymentId) }).expect(404);
    const gone = await deployedApp('Signup gone');
    await dev.delete(`/v1/apps/${gone.appId}`).expect(204);
    await post(gone.path, { email: 'y@example.com', website: '', token: tokenFor(gone.deploymentId) }).expect(404);
  });

  it('signs up through the environment alias too, crediting the deployment whose page the visitor saw', async () => {
    const site = await deployedApp('Signup alias');
    const alias = `/sites/${site.appId}/production/`;
    const seenToken = tokenFor(site.deploymentId);
    const newer = (await dev.post('/v1/apps/deploy', { appId: site.appId, env: 'production' }).expect(200)).body.deploymentId;
    const res = await post(alias, { email: 'alias@example.com', website: '', token: seenToken }).expect(303);
    expect(res.headers.location).toBe(`${alias}thanks`);
    await settled();
    expect((await signupsOf(site.appId)).map((e) => e.data.deploymentId)).toEqual([site.deploymentId]);
    expect(newer).not.toBe(site.deploymentId);
    // A token of another app's page does not count here.
    const other = await deployedApp('Signup other');
    await post(alias, { email: 'cross@example.com', website: '', token: tokenFor(other.deploymentId) }).expect(303);
    await settled();
    expect((await usersOf(site.appId)).map((u) => u.email)).toEqual(['alias@example.com']);
  });

  describeInBrowser('in a real browser, with JavaScript off', () => {
    it('fills the form, lands on the thanks page, and a webhook receiver gets exactly one user.created', async () => {
      await dev.post('/v1/webhook-endpoints', { url: `${setup.receiver.url}/browser`, events: ['user.created'] }).expect(201);
      const site = await deployedApp('Recipe Box', {
        schemaVersion: 1,
        hero: {
          headline: 'Family recipes, finally in one place',
          subheadline: 'Collect the dishes your family loves, cook them together, and pass them on.',
          ctaLabel: 'Join the waitlist',
        },
        features: [
          { title: 'Every recipe, one tap away', body: "Import from any website or snap a photo of grandma's handwritten card." },
          { title: 'Cook together', body: 'Shared shopping lists and step-by-step mode for the whole kitchen.' },
          { title: 'Private by design', body: 'No ads, no trackers. Your recipes stay in your family.' },
        ],
        faq: [
          { question: 'Is it free?', answer: 'Yes, for families of up to ten people.' },
          { question: 'When does it launch?', answer: 'This spring. Sign up and we will tell you first.' },
        ],
        cta: { headline: 'Start your family cookbook' },
        signup: {
          enabled: true,
          buttonLabel: 'Join',
          consentText: 'We will only e-mail you about Recipe Box. No spam.',
          successMessage: "You're on the list! We'll be in touch.",
        },
        theme: { accent: '#E4572E' },
      });
      const session = await openBrowser({ javaScriptEnabled: false });
      try {
        const { page } = session;
        await page.goto(`${setup.app.url}${site.path}`);
        expect(await page.locator('h1').innerText()).toBe('Family recipes, finally in one place');
        expect(await page.locator('.card').count()).toBe(3);
        await screenshot(page, 'landing-page');
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, 'landing-page-mobile');
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.getByLabel('E-mail').fill('browser.visitor@example.com');
        // A person reads before signing up (the form refuses posts younger than 2 s).
        await page.waitForTimeout(2100);
        await page.getByRole('button', { name: 'Join', exact: true }).click();
        await page.waitForURL(`**${site.path}thanks`);
        expect(await page.locator('h1').innerText()).toBe("You're on the list! We'll be in touch.");
        await screenshot(page, 'landing-page-thanks');
      } finally {
        await session.close();
      }
      await until(() => setup.receiver.at('/browser').length >= 1, 10_000, 'user.created delivery');
      await new Promise((r) => setTimeout(r, 300));
      const delivered = setup.receiver.at('/browser').map((r) => JSON.parse(r.raw));
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({
        event: 'user.created',
        data: { email: 'browser.visitor@example.com', appId: site.appId, source: 'landing-page', deploymentId: site.deploymentId },
      });
    });
  });
});

import { LIMITS } from '../src/landing-pages/landing-page.js';
import {
  ApiClient,
  clientFor,
  EventRecorder,
  EventRecorderModule,
  expectErrorBody,
  newAccountClient,
  NO_RATE_LIMIT,
  scopedClient,
} from './support/api-client.js';
import { TEST_MODEL_PATH } from './support/models.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

const XSS = `<script>alert('x')</script><img src=x onerror=alert(1)>"'&`;

function fullPage(overrides: Record<string, unknown> = {}) {
  return {
    schemaVersion: 1,
    hero: { headline: 'Family recipes, finally in one place', subheadline: 'Collect and cook together.', ctaLabel: 'Join the waitlist' },
    features: [
      { title: 'One tap', body: 'Every recipe one tap away.' },
      { title: 'Shared', body: 'Your whole family adds to it.' },
    ],
    faq: [{ question: 'Is it free?', answer: 'Yes, for families.' }],
    cta: { headline: 'Start your cookbook' },
    signup: { enabled: true, buttonLabel: 'Join', consentText: 'Only news about Recipe Box.', successMessage: 'You are on the list!' },
    theme: { accent: '#e4572e' },
    ...overrides,
  };
}

/** Every generated field within its limits (and non-empty where it must be). */
function expectWithinLimits(page: ReturnType<typeof fullPage>) {
  const within = (text: string, [min, max]: readonly [number, number]) => {
    expect(typeof text).toBe('string');
    expect(text.length).toBeGreaterThanOrEqual(min);
    expect(text.length).toBeLessThanOrEqual(max);
    expect(text).not.toMatch(/[<>*`#]/);
    expect(text).toBe(text.trim());
  };
  within(page.hero.headline, LIMITS.hero.headline);
  within(page.hero.subheadline, LIMITS.hero.subheadline);
  within(page.hero.ctaLabel, LIMITS.hero.ctaLabel);
  expect(page.features.length).toBeGreaterThan(0);
  expect(page.features.length).toBeLessThanOrEqual(LIMITS.features);
  for (const f of page.features) {
    within(f.title, LIMITS.feature.title);
    within(f.body, LIMITS.feature.body);
  }
  expect(page.faq.length).toBeGreaterThan(0);
  for (const q of page.faq) {
    within(q.question, LIMITS.faq.question);
    within(q.answer, LIMITS.faq.answer);
  }
  within(page.cta.headline, LIMITS.cta.headline);
}

describe(`landing pages (${target})`, () => {
  describe('without an AI provider', () => {
    let app: TestApp;
    let dev: ApiClient;
    let events: EventRecorder;

    beforeAll(async () => {
      app = await startTestApp({ env: NO_RATE_LIMIT, modules: [EventRecorderModule] });
      events = app.server.app.get(EventRecorder);
      dev = await newAccountClient(app);
    });
    afterAll(() => app.close());

    it('gives an app that never had one a default page built from its name and description', async () => {
      const created = (await dev.post('/v1/apps', { name: 'Recipe Box', description: 'Share family recipes.' }).expect(201)).body;
      const res = await dev.get(`/v1/apps/${created.appId}/landing-page`).expect(200);
      expect(res.body).toEqual({
        appId: created.appId,
        source: 'default',
        updatedAt: created.updatedAt,
        page: {
          schemaVersion: 1,
          hero: { headline: 'Recipe Box', subheadline: 'Share family recipes.', ctaLabel: 'Get early access' },
          features: [],
          faq: [],
          cta: { headline: 'Be the first to try Recipe Box' },
          signup: { enabled: true, buttonLabel: 'Sign up', consentText: expect.any(String), successMessage: expect.any(String) },
          theme: { accent: '#5146E5' },
        },
      });
      expect(await app.query('SELECT * FROM landing_pages WHERE app_id = $1', [created.appId])).toEqual([]);
    });

    it('saves a page as written (markup stays text), moves the app, emits app.updated, and serves it after a deploy', async () => {
      const { appId } = (await dev.post('/v1/apps', { name: 'Recipe Box' }).expect(201)).body;
      const page = fullPage({ hero: { headline: XSS, subheadline: XSS, ctaLabel: 'Join' } });
      const put = await dev.put(`/v1/apps/${appId}/landing-page`, page).expect(200);
      expect(put.body).toEqual({ appId, source: 'manual', page: { ...page, theme: { accent: '#E4572E' } }, updatedAt: expect.any(String) });
      expect((await dev.get(`/v1/apps/${appId}/landing-page`).expect(200)).body).toEqual(put.body);
      const [row] = await app.query<{ source: string; page: { hero: { headline: string } } }>('SELECT source, page FROM landing_pages WHERE app_id = $1', [
        appId,
      ]);
      expect(row).toMatchObject({ source: 'manual', page: { hero: { headline: XSS } } });
      const updated = (await events.of('app.updated')).filter((e) => e.data.appId === appId);
      expect(updated).toHaveLength(1);
      expect(updated[0].data).toMatchObject({ changed: ['landingPage'], previousAttributes: {} });
      expect((await dev.get(`/v1/apps/${appId}`).expect(200)).body.updatedAt).toBe(updated[0].data.updatedAt);

      const deployment = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
      expect((await dev.get(`/v1/deployments/${deployment.deploymentId}`).expect(200)).body.snapshot.landingPage).toEqual(put.body.page);
      const html = (await app.http().get(`/sites/${deployment.deploymentId}/`).expect(200)).text;
      expect(html).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
      expect(html).not.toContain('<script');
      expect(html).not.toContain('<img');
      expect(html).toContain('<h3>One tap</h3>');
      expect(html).toContain('<summary>Is it free?</summary>');
      expect(html).toContain('--accent: #E4572E;');

      // A later edit does not touch what is deployed.
      await dev.put(`/v1/apps/${appId}/landing-page`, fullPage({ cta: { headline: 'Changed later' } })).expect(200);
      expect((await app.http().get(`/sites/${deployment.deploymentId}/`).expect(200)).text).not.toContain('Changed later');
    });

    it('names the field of every bad value, and refuses unknown fields', async () => {
      const { appId } = (await dev.post('/v1/apps', { name: 'Strict' }).expect(201)).body;
      const cases: Array<[Record<string, unknown>, string]> = [
        [fullPage({ hero: { headline: 'x', subtitle: 'y', subheadline: '', ctaLabel: 'Go' } }), 'property hero.subtitle should not exist'],
        [fullPage({ hero: { headline: 'x'.repeat(121), subheadline: '', ctaLabel: 'Go' } }), 'hero.headline must be 1 to 120 characters long'],
        [fullPage({ hero: { headline: '', subheadline: '', ctaLabel: 'Go' } }), 'hero.headline must be 1 to 120 characters long'],
        [fullPage({ features: Array.from({ length: 7 }, () => ({ title: 't', body: 'b' })) }), 'features must have at most 6 items'],
        [fullPage({ features: [{ title: 't', body: 'b'.repeat(401) }] }), 'features.0.body must be 1 to 400 characters long'],
        [fullPage({ faq: [{ question: 'q' }] }), 'faq.0.answer'],
        [fullPage({ theme: { accent: 'red' } }), 'theme.accent must be a colour like #5146E5'],
        [fullPage({ signup: { enabled: 'yes', buttonLabel: 'b', consentText: '', successMessage: 's' } }), 'signup.enabled must be a boolean value'],
        [fullPage({ schemaVersion: 2 }), 'schemaVersion must be 1'],
        [{ ...fullPage(), extra: true }, 'property extra should not exist'],
      ];
      for (const [body, message] of cases) {
        const res = await dev.put(`/v1/apps/${appId}/landing-page`, body);
        expect(res.status).toBe(400);
        expectErrorBody(res.body, 400, message);
      }
      expect(await app.query('SELECT * FROM landing_pages WHERE app_id = $1', [appId])).toEqual([]);
    });

    it('keeps pages to their account, needs apps:read / apps:write, and answers 503 for generation without a provider', async () => {
      const { appId } = (await dev.post('/v1/apps', { name: 'Mine' }).expect(201)).body;
      const other = await newAccountClient(app);
      expectErrorBody((await other.get(`/v1/apps/${appId}/landing-page`).expect(404)).body, 404, `App ${appId} not found`);
      expectErrorBody((await other.put(`/v1/apps/${appId}/landing-page`, fullPage()).expect(404)).body, 404, `App ${appId} not found`);
      const reader = await scopedClient(app, dev, ['apps:read']);
      await reader.get(`/v1/apps/${appId}/landing-page`).expect(200);
      expectErrorBody((await reader.put(`/v1/apps/${appId}/landing-page`, fullPage()).expect(403)).body, 403, 'apps:write');
      const writerWithoutAi = await scopedClient(app, dev, ['apps:write']);
      expectErrorBody((await writerWithoutAi.post(`/v1/apps/${appId}/landing-page/generate`, {}).expect(403)).body, 403, 'ai:generate');
      const res = await dev.post(`/v1/apps/${appId}/landing-page/generate`, {}).expect(503);
      expect(res.body).toMatchObject({ error: true, code: 503, reason: 'not_configured' });
      expectErrorBody(
        (await dev.post(`/v1/apps/${appId}/landing-page/generate`, { sections: ['footer'] }).expect(400)).body,
        400,
        'each value in sections must be one of',
      );
      expectErrorBody(
        (await dev.post(`/v1/apps/${appId}/landing-page/generate`, { prompt: 'x'.repeat(2001) }).expect(400)).body,
        400,
        'prompt must be at most 2000',
      );
    });

    it('serves deployments made before landing pages (snapshot version 1) with the default page of the app as it was', async () => {
      const { appId } = (await dev.post('/v1/apps', { name: 'Old timer', description: 'From before.' }).expect(201)).body;
      await app.query(`INSERT INTO deployments (id, account_id, app_id, env, snapshot) VALUES ('dep_01OLDSNAPSHOT0000000000000', $1, $2, 'production', $3)`, [
        dev.accountId,
        appId,
        JSON.stringify({ schemaVersion: 1, app: { name: 'Old timer', description: 'From before.' } }),
      ]);
      const html = (await app.http().get('/sites/dep_01OLDSNAPSHOT0000000000000/').expect(200)).text;
      expect(html).toContain('<h1>Old timer</h1>');
      expect(html).toContain('<form method="post"');
      const api = (await dev.get('/v1/deployments/dep_01OLDSNAPSHOT0000000000000').expect(200)).body;
      expect(api.snapshot).toMatchObject({ name: 'Old timer', landingPage: { hero: { headline: 'Old timer', subheadline: 'From before.' } } });
    });
  });

  describe('generated by the 1 MB test model', () => {
    let app: TestApp;
    let dev: ApiClient;

    beforeAll(async () => {
      app = await startTestApp({ env: { ...NO_RATE_LIMIT, RATE_LIMIT_AI_MAX: '2', AI_PROVIDER: 'local', AI_MODEL_PATH: TEST_MODEL_PATH, AI_THREADS: '1' } });
      const account = await createAccount(app);
      dev = clientFor(app, account.accountId, account.apiKey);
    });
    afterAll(() => app.close());

    it('writes a valid page within every limit from nonsense text, meters each field, and keeps the sections not asked for', async () => {
      const { appId } = (await dev.post('/v1/apps', { name: 'Recipe Box', description: 'Share family recipes.' }).expect(201)).body;
      const manual = fullPage();
      await dev.put(`/v1/apps/${appId}/landing-page`, manual).expect(200);

      const res = await dev
        .post(`/v1/apps/${appId}/landing-page/generate`, { prompt: 'For busy parents.', sections: ['hero', 'features', 'faq', 'cta'] })
        .expect(200);
      expect(res.body).toMatchObject({ appId, source: 'generated', updatedAt: expect.any(String) });
      expectWithinLimits(res.body.page);
      // Not asked for: the sign-up form and the theme are kept.
      expect(res.body.page.signup).toEqual(manual.signup);
      expect(res.body.page.theme).toEqual({ accent: '#E4572E' });
      expect((await dev.get(`/v1/apps/${appId}/landing-page`).expect(200)).body).toEqual(res.body);
      // Each field was an ordinary, metered generation: 3 hero + 3×2 features + 3×2 questions + 1 call to action.
      const usage = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM ai_usage WHERE account_id = $1 AND outcome = 'success'`, [dev.accountId]);
      expect(usage[0].n).toBe(16);
      // Only the hero, this time: the rest stays as generated.
      const heroOnly = await dev.post(`/v1/apps/${appId}/landing-page/generate`, { sections: ['hero'] }).expect(200);
      expect(heroOnly.body.page.features).toEqual(res.body.page.features);
      expect(heroOnly.body.page.faq).toEqual(res.body.page.faq);
      expect(heroOnly.body.page.cta).toEqual(res.body.page.cta);
      // The route counts once per call in the AI rate limit (RATE_LIMIT_AI_MAX=2 here).
      const limited = await dev.post(`/v1/apps/${appId}/landing-page/generate`, { sections: ['cta'] }).expect(429);
      expect(limited.body).toMatchObject({ error: true, code: 429 });
    });
  });
});

import { ApiClient, EventRecorder, EventRecorderModule, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { appWithReceiver, until } from './support/webhook-receiver.js';

describe(`publishing (${target})`, () => {
  const setup = appWithReceiver({ env: NO_RATE_LIMIT, modules: [EventRecorderModule] });
  let dev: ApiClient;
  let events: EventRecorder;

  beforeAll(async () => {
    events = setup.app.server.app.get(EventRecorder);
    dev = await newAccountClient(setup.app);
    await dev.post('/v1/webhook-endpoints', { url: `${setup.receiver.url}/publishing`, events: ['app.published', 'app.unpublished'] }).expect(201);
  });

  const deploy = async (appId: string, env = 'production') => (await dev.post('/v1/apps/deploy', { appId, env }).expect(200)).body.deploymentId as string;
  const page = (path: string, headers: Record<string, string> = {}) => setup.app.http().get(path).set(headers);
  const headline = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
  const withPage = async (appId: string, text: string) => {
    const current = (await dev.get(`/v1/apps/${appId}/landing-page`).expect(200)).body.page;
    await dev.put(`/v1/apps/${appId}/landing-page`, { ...current, hero: { ...current.hero, headline: text } }).expect(200);
  };

  describe('slugs', () => {
    it('makes one from the name, unique on the server, and refuses a taken or malformed one', async () => {
      const first = (await dev.post('/v1/apps', { name: 'Crème Brûlée Club!' }).expect(201)).body;
      expect(first.slug).toBe('creme-brulee-club');
      const other = await newAccountClient(setup.app);
      const second = (await other.post('/v1/apps', { name: 'Crème brûlée club' }).expect(201)).body;
      expect(second.slug).toBe('creme-brulee-club-2');
      const taken = await other.post('/v1/apps', { name: 'Mine', slug: 'creme-brulee-club' }).expect(409);
      expectErrorBody(taken.body, 409, 'slug "creme-brulee-club" is taken');
      for (const slug of ['ab', 'Has-Caps', '-dash', 'dash-', 'x'.repeat(41), 'under_score']) {
        const res = await dev.post('/v1/apps', { name: 'Bad slug', slug });
        expect(res.status).toBe(400);
        expect(res.body.message).toMatch(/slug must/);
      }
      expect((await dev.post('/v1/apps', { name: 'X' }).expect(201)).body.slug).toBe('x-app');
    });

    it('keeps a renamed slug redirecting (301) for 30 days, reserved for its app, then frees it', async () => {
      const created = (await dev.post('/v1/apps', { name: 'Renamed', slug: 'before-rename', visibility: 'public' }).expect(201)).body;
      await deploy(created.appId);
      await dev.post(`/v1/apps/${created.appId}/publish`, {}).expect(200);
      const renamed = (await dev.patch(`/v1/apps/${created.appId}`, { slug: 'after-rename' }).expect(200)).body;
      expect(renamed.slug).toBe('after-rename');
      expect(renamed.publicUrl).toMatch(/\/p\/after-rename\/$/);
      const moved = await page('/p/before-rename/thanks?ref=mail');
      expect(moved.status).toBe(301);
      expect(moved.headers.location).toBe('/p/after-rename/thanks?ref=mail');
      expect((await page('/p/after-rename/')).status).toBe(200);
      // Nobody else may take it meanwhile; the app itself may take it back.
      const other = await newAccountClient(setup.app);
      await other.post('/v1/apps', { name: 'Squatter', slug: 'before-rename' }).expect(409);
      await dev.patch(`/v1/apps/${created.appId}`, { slug: 'before-rename' }).expect(200);
      expect((await page('/p/before-rename/')).status).toBe(200);
      expect((await page('/p/after-rename/')).headers.location).toBe('/p/before-rename/');
      // After 30 days the old address is gone and free.
      await setup.app.query(`UPDATE slug_redirects SET expires_at = now() - interval '1 second' WHERE slug = 'after-rename'`);
      expect((await page('/p/after-rename/')).status).toBe(404);
      await other.post('/v1/apps', { name: 'Later', slug: 'after-rename' }).expect(201);
    });

    it("holds a deleted app's slugs for its account for 30 days: 404 at the old addresses, 409 for anyone else, reusable by the account", async () => {
      const bank = await newAccountClient(setup.app);
      const created = (await bank.post('/v1/apps', { name: 'Famous Bank', slug: 'famous-bank-was', visibility: 'public' }).expect(201)).body;
      await bank.post('/v1/apps/deploy', { appId: created.appId, env: 'production' }).expect(200);
      await bank.post(`/v1/apps/${created.appId}/publish`, {}).expect(200);
      await bank.patch(`/v1/apps/${created.appId}`, { slug: 'famous-bank' }).expect(200);
      expect((await page('/p/famous-bank/')).status).toBe(200);
      await bank.delete(`/v1/apps/${created.appId}`).expect(204);

      // Its address and the old slug it redirected from: 404, never a redirect.
      for (const slug of ['famous-bank', 'famous-bank-was']) {
        const res = await page(`/p/${slug}/`);
        expect(res.status).toBe(404);
        expect(res.headers.location).toBeUndefined();
      }
      // Nobody else may take them, by creating or renaming; a default slug from the name passes them by.
      const squatter = await newAccountClient(setup.app);
      for (const slug of ['famous-bank', 'famous-bank-was']) {
        const refused = await squatter.post('/v1/apps', { name: 'Famous Bank', slug }).expect(409);
        expect(refused.body).toMatchObject({ error: true, code: 409, reason: 'slug_taken', message: `slug "${slug}" is taken; choose another` });
      }
      const own = (await squatter.post('/v1/apps', { name: 'Famous Bank' }).expect(201)).body;
      expect(own.slug).toBe('famous-bank-2');
      expect((await squatter.patch(`/v1/apps/${own.appId}`, { slug: 'famous-bank' }).expect(409)).body.reason).toBe('slug_taken');
      await squatter.post(`/v1/apps/deploy`, { appId: own.appId, env: 'production' }).expect(200);
      await squatter.post(`/v1/apps/${own.appId}/publish`, {}).expect(200);
      expect((await page('/p/famous-bank/')).status).toBe(404);

      // The account itself may take them again, by creating or renaming.
      const again = (await bank.post('/v1/apps', { name: 'Famous Bank', slug: 'famous-bank' }).expect(201)).body;
      expect(again.slug).toBe('famous-bank');
      const other = (await bank.post('/v1/apps', { name: 'Other' }).expect(201)).body;
      expect((await bank.patch(`/v1/apps/${other.appId}`, { slug: 'famous-bank-was' }).expect(200)).body.slug).toBe('famous-bank-was');
      expect(await setup.app.query(`SELECT slug FROM slug_redirects WHERE slug LIKE 'famous-bank%'`)).toEqual([]);

      // After 30 days a deleted app's slug is free for anyone.
      await bank.delete(`/v1/apps/${again.appId}`).expect(204);
      await squatter.post('/v1/apps', { name: 'Too soon', slug: 'famous-bank' }).expect(409);
      await setup.app.query(`UPDATE slug_redirects SET expires_at = now() - interval '1 second' WHERE slug = 'famous-bank'`);
      await squatter.patch(`/v1/apps/${own.appId}`, { slug: 'famous-bank' }).expect(200);
      expect((await page('/p/famous-bank/')).status).toBe(200);
    });
  });

  describe('publish, roll back, unpublish, republish', () => {
    it('moves the public address through every state, with the headers and events each one needs', async () => {
      const created = (await dev.post('/v1/apps', { name: 'Recipe Box', slug: 'recipe-box-pub', visibility: 'public' }).expect(201)).body;
      const appId = created.appId as string;
      const address = '/p/recipe-box-pub/';
      expect(created).toMatchObject({ publishState: 'draft', publicUrl: null, publishedDeploymentId: null, publishedAt: null });
      // Draft: nothing at the address; nothing to publish yet.
      expect((await page(address)).status).toBe(404);
      expectErrorBody((await dev.post(`/v1/apps/${appId}/publish`, {}).expect(400)).body, 400, 'has no production deployment');
      expect((await dev.post(`/v1/apps/${appId}/unpublish`).expect(409)).body.reason).toBe('app_not_published');

      await withPage(appId, 'Version one');
      const v1 = await deploy(appId);
      const published = (await dev.post(`/v1/apps/${appId}/publish`, {}).expect(200)).body;
      expect(published).toMatchObject({
        publishState: 'published',
        publishedDeploymentId: v1,
        publishedAt: expect.any(String),
        publicUrl: expect.stringMatching(/\/p\/recipe-box-pub\/$/),
      });
      const first = await page(address).expect(200);
      expect(headline(first.text)).toBe('Version one');
      expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=60');
      expect(first.headers.etag).toMatch(new RegExp(`^"${v1}\\.`));
      expect(first.headers['x-robots-tag']).toBeUndefined();
      expect(first.text).toContain('<meta name="robots" content="index, follow">');
      // A cache that holds this copy revalidates it for nothing.
      const notModified = await page(address, { 'if-none-match': first.headers.etag });
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      // The deployment's own url and its alias are previews: never indexed.
      const own = await page(`/sites/${v1}/`).expect(200);
      expect(own.headers['x-robots-tag']).toBe('noindex');
      expect(own.text).toContain('<meta name="robots" content="noindex">');
      expect((await page(`/sites/${appId}/production/`).expect(200)).headers['x-robots-tag']).toBe('noindex');

      // A new production deployment, published by default: the newest.
      await withPage(appId, 'Version two');
      const v2 = await deploy(appId);
      await dev.post(`/v1/apps/${appId}/publish`, {}).expect(200);
      const second = await page(address, { 'if-none-match': first.headers.etag }).expect(200);
      expect(headline(second.text)).toBe('Version two');
      expect(second.headers.etag).not.toBe(first.headers.etag);

      // Roll back: publish the older deployment; served at once, nothing rebuilt.
      const rolledBack = (await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: v1 }).expect(200)).body;
      expect(rolledBack.publishedDeploymentId).toBe(v1);
      expect(headline((await page(address).expect(200)).text)).toBe('Version one');
      expect(await setup.app.query(`SELECT count(*)::int AS n FROM deployments WHERE app_id = $1`, [appId])).toEqual([{ n: 2 }]);
      // Any environment can be published; another app's deployment cannot.
      const staging = await deploy(appId, 'staging');
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: staging }).expect(200);
      const stranger = (await dev.post('/v1/apps', { name: 'Stranger' }).expect(201)).body.appId;
      const strangers = await deploy(stranger);
      expectErrorBody(
        (await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: strangers }).expect(400)).body,
        400,
        `deploymentId "${strangers}" is not a deployment of app ${appId}`,
      );

      // Unpublish: the address is gone (410), the deployment urls stay (noindex).
      const unpublished = (await dev.post(`/v1/apps/${appId}/unpublish`).expect(200)).body;
      expect(unpublished).toMatchObject({ publishState: 'unpublished', publicUrl: null, publishedDeploymentId: null });
      const gone = await page(address, { accept: 'text/html' });
      expect(gone.status).toBe(410);
      expect(gone.text).toContain('This app was taken down');
      const goneJson = await page(address, { accept: 'application/json' });
      expect(goneJson.status).toBe(410);
      expect(goneJson.body).toMatchObject({ error: true, code: 410, reason: 'app_unpublished' });
      expect((await page(`/sites/${v2}/`).expect(200)).headers['x-robots-tag']).toBe('noindex');

      // Republish.
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: v2 }).expect(200);
      expect(headline((await page(address).expect(200)).text)).toBe('Version two');

      // Every change was an event, in order, with its payload — and webhooks got them.
      const payloads = [...(await events.of('app.published')), ...(await events.of('app.unpublished'))]
        .filter((e) => e.data.appId === appId)
        .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())
        .map((e) => ({ name: e.name, ...e.data }));
      const publicUrl = published.publicUrl;
      expect(payloads).toEqual([
        { name: 'app.published', appId, deploymentId: v1, previousDeploymentId: null, publicUrl },
        { name: 'app.published', appId, deploymentId: v2, previousDeploymentId: v1, publicUrl },
        { name: 'app.published', appId, deploymentId: v1, previousDeploymentId: v2, publicUrl },
        { name: 'app.published', appId, deploymentId: staging, previousDeploymentId: v1, publicUrl },
        { name: 'app.unpublished', appId },
        { name: 'app.published', appId, deploymentId: v2, previousDeploymentId: null, publicUrl },
      ]);
      await until(() => setup.receiver.at('/publishing').filter((r) => JSON.parse(r.raw).data.appId === appId).length === 6, 10_000, 'six deliveries');

      // Deleting the app takes the address with it; the slug stays the account's to reuse.
      await dev.delete(`/v1/apps/${appId}`).expect(204);
      expect((await page(address)).status).toBe(404);
      await dev.post('/v1/apps', { name: 'Reuse', slug: 'recipe-box-pub' }).expect(201);
    });

    it('takes sign-ups at the public address, credited to the published deployment', async () => {
      const created = (await dev.post('/v1/apps', { name: 'Published signup', slug: 'published-signup' }).expect(201)).body;
      const deploymentId = await deploy(created.appId);
      await dev.post(`/v1/apps/${created.appId}/publish`, {}).expect(200);
      const html = (await page('/p/published-signup/').expect(200)).text;
      expect(html).toContain('action="/p/published-signup/signup"');
      const { SignupTokens } = await import('../src/sites/signup-token.js');
      const token = setup.app.server.app.get(SignupTokens).issue(deploymentId, Date.now() - 5000);
      const res = await setup.app.http().post('/p/published-signup/signup').type('form').send({ email: 'public@example.com', website: '', token }).expect(303);
      expect(res.headers.location).toBe('/p/published-signup/thanks');
      const { SignupService } = await import('../src/sites/signup.service.js');
      await setup.app.server.app.get(SignupService).settled(); // stored after the answer
      expect((await events.of('user.created')).filter((e) => e.data.appId === created.appId).map((e) => e.data.deploymentId)).toEqual([deploymentId]);
    });
  });

  describe('the catalogue', () => {
    it('lists published public apps only, newest publication first, as JSON and as a page', async () => {
      const owner = await newAccountClient(setup.app);
      const make = async (name: string, visibility: 'public' | 'unlisted', publish: boolean) => {
        const a = (await owner.post('/v1/apps', { name, visibility, description: `About <${name}>` }).expect(201)).body;
        await owner.post('/v1/apps/deploy', { appId: a.appId, env: 'production' }).expect(200);
        if (publish) await owner.post(`/v1/apps/${a.appId}/publish`, {}).expect(200);
        return a;
      };
      const listed = await make('Catalogued One', 'public', true);
      await make('Unlisted One', 'unlisted', true);
      await make('Draft One', 'public', false);
      const withdrawn = await make('Withdrawn One', 'public', true);
      await owner.post(`/v1/apps/${withdrawn.appId}/unpublish`).expect(200);
      const later = await make('Catalogued Two', 'public', true);

      const slugs: string[] = [];
      let cursor: string | null = null;
      do {
        const res: {
          body: { data: Array<{ slug: string; name: string; publicUrl: string; publishedAt: string; description: string }>; nextCursor: string | null };
        } = await setup.app
          .http()
          .get(`/catalog?limit=1${cursor ? `&cursor=${cursor}` : ''}`)
          .expect(200);
        for (const entry of res.body.data) {
          expect(Object.keys(entry).sort()).toEqual(['description', 'name', 'publicUrl', 'publishedAt', 'slug']);
          slugs.push(entry.slug);
        }
        cursor = res.body.nextCursor;
      } while (cursor);
      expect(slugs.indexOf(later.slug)).toBeLessThan(slugs.indexOf(listed.slug));
      for (const hidden of ['unlisted-one', 'draft-one', 'withdrawn-one']) expect(slugs).not.toContain(hidden);

      const html = await setup.app.http().get('/catalog/').expect(200);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
      expect(html.text).toContain('Catalogued One');
      expect(html.text).toContain('About &lt;Catalogued One&gt;');
      expect(html.text).not.toContain('Unlisted One');
      // Visibility can change while published: unlisted leaves the catalogue, the address stays.
      await owner.patch(`/v1/apps/${listed.appId}`, { visibility: 'unlisted' }).expect(200);
      expect((await setup.app.http().get('/catalog?limit=100').expect(200)).body.data.map((e: { slug: string }) => e.slug)).not.toContain(listed.slug);
      expect((await page(`/p/${listed.slug}/`)).status).toBe(200);
    });
  });
});

describe(`publishing under SITES_DOMAIN (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SITES_DOMAIN: 'apps.example.test' } });
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  it('serves a published app at <slug>.<SITES_DOMAIN>/ and at /p/<slug>/, with https public URLs', async () => {
    const created = (await dev.post('/v1/apps', { name: 'Host routed', slug: 'host-routed' }).expect(201)).body;
    const deploymentId = (await dev.post('/v1/apps/deploy', { appId: created.appId, env: 'production' }).expect(200)).body.deploymentId;
    const published = (await dev.post(`/v1/apps/${created.appId}/publish`, {}).expect(200)).body;
    expect(published.publicUrl).toBe('https://host-routed.apps.example.test/');

    const byHost = await app.http().get('/').set('host', 'host-routed.apps.example.test').expect(200);
    expect(byHost.headers['x-deployment-id']).toBe(deploymentId);
    expect(byHost.headers['x-robots-tag']).toBeUndefined();
    expect(byHost.text).toContain('action="/signup"');
    const thanks = await app.http().get('/thanks').set('host', 'host-routed.apps.example.test').expect(200);
    expect(thanks.text).toContain('You signed up to Host routed');
    await app.http().get('/p/host-routed/').expect(200);
    // Unknown names under the domain, and API paths on an app's host, are not found; the API's own host is untouched.
    expect((await app.http().get('/').set('host', 'nobody.apps.example.test')).status).toBe(404);
    expect((await app.http().get('/v1/apps').set('host', 'host-routed.apps.example.test')).status).toBe(404);
    await dev.get('/v1/apps').expect(200);
    // A renamed slug sends visitors to the new host.
    await dev.patch(`/v1/apps/${created.appId}`, { slug: 'host-renamed' }).expect(200);
    const moved = await app.http().get('/thanks?x=1').set('host', 'host-routed.apps.example.test').expect(301);
    expect(moved.headers.location).toBe('https://host-renamed.apps.example.test/thanks?x=1');
  });
});

describe(`the API's own label is no app's slug (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, PUBLIC_URL: 'https://api.platform.test', SITES_DOMAIN: 'apps.platform-sites.test' } });
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  it('refuses the slug `api` beside https://api.platform.test (409 slug_reserved), passes it by for a name, and never serves it', async () => {
    const asked = await dev.post('/v1/apps', { name: 'Imposter', slug: 'api' }).expect(409);
    expectErrorBody(asked.body, 409, `slug "api" is the platform's own (its address's first label); choose another`);
    expect(asked.body.reason).toBe('slug_reserved');
    // A name whose slug would be `api` gets the next one.
    const named = (await dev.post('/v1/apps', { name: 'API' }).expect(201)).body;
    expect(named.slug).toBe('api-2');
    const renamed = await dev.patch(`/v1/apps/${named.appId}`, { slug: 'api' }).expect(409);
    expect(renamed.body.reason).toBe('slug_reserved');
    expect((await dev.get(`/v1/apps/${named.appId}`).expect(200)).body.slug).toBe('api-2');
    expect(await app.query(`SELECT slug FROM apps WHERE slug = 'api'`)).toEqual([]);
    // The API answers on its own host; `api.<SITES_DOMAIN>` names no site.
    await dev.get('/v1/apps').set('host', 'api.platform.test').expect(200);
    expect((await app.http().get('/').set('host', 'api.apps.platform-sites.test')).status).toBe(404);
  });
});

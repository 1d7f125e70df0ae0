import {
  ApiClient,
  EventRecorder,
  EventRecorderModule,
  expectErrorBody,
  inBatches,
  newAccountClient,
  NO_RATE_LIMIT,
  scopedClient,
} from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe(`apps (${target})`, () => {
  let app: TestApp;
  let events: EventRecorder;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT, modules: [EventRecorderModule] });
    events = app.server.app.get(EventRecorder);
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  it("walks the seed's flow: list apps, create, deploy to production, open the url, list deployments", async () => {
    const before = await dev.get('/v1/apps').expect(200);
    expect(before.body).toEqual({ data: [], nextCursor: null });

    const created = await dev.post('/v1/apps', { name: 'Recipe Box', description: 'Share family recipes.' }).expect(201);
    const appId = created.body.appId as string;
    expect(appId).toMatch(/^app_[0-9A-Z]{26}$/);

    const deployed = await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
    expect(deployed.body).toEqual({
      status: 'success',
      deploymentId: expect.stringMatching(/^dep_[0-9A-Z]{26}$/),
      url: `${app.server.config.publicUrl}/sites/${deployed.body.deploymentId}/`,
      appId,
      env: 'production',
      createdAt: expect.stringMatching(ISO),
    });

    // The url serves the page, without credentials.
    const page = await app.http().get(new URL(deployed.body.url).pathname).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<h1>Recipe Box</h1>');
    expect(page.text).toContain('Share family recipes.');

    const listed = await dev.get(`/v1/apps/${appId}/deployments`).expect(200);
    expect(listed.body.nextCursor).toBeNull();
    expect(listed.body.data).toEqual([
      {
        ...deployed.body,
        snapshot: {
          name: 'Recipe Box',
          description: 'Share family recipes.',
          landingPage: expect.objectContaining({ hero: { headline: 'Recipe Box', subheadline: 'Share family recipes.', ctaLabel: 'Get early access' } }),
        },
      },
    ]);

    const after = await dev.get('/v1/apps').expect(200);
    expect(after.body.data.map((a: { appId: string }) => a.appId)).toEqual([appId]);
  });

  it('creates, reads, updates and deletes an app, raising one event for each change', async () => {
    const created = await dev.post('/v1/apps', { name: '  Trimmed  ' }).expect(201);
    const appId = created.body.appId;
    expect(created.body).toEqual({
      appId,
      name: 'Trimmed',
      description: null,
      slug: expect.stringMatching(/^trimmed(-\d+)?$/),
      visibility: 'unlisted',
      publishState: 'draft',
      publishedDeploymentId: null,
      publishedAt: null,
      publicUrl: null,
      createdAt: expect.stringMatching(ISO),
      updatedAt: created.body.createdAt,
    });
    const rows = await app.query('SELECT account_id, name, description FROM apps WHERE id = $1', [appId]);
    expect(rows).toEqual([{ account_id: dev.accountId, name: 'Trimmed', description: null }]);

    await dev.get(`/v1/apps/${appId}`).expect(200, created.body);

    const updated = await dev.patch(`/v1/apps/${appId}`, { description: 'Now described' }).expect(200);
    expect(updated.body).toMatchObject({ appId, name: 'Trimmed', description: 'Now described', createdAt: created.body.createdAt });
    expect(Date.parse(updated.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.body.updatedAt));
    await dev.get(`/v1/apps/${appId}`).expect(200, updated.body);

    // The same values again change nothing: no event.
    await dev.patch(`/v1/apps/${appId}`, { description: 'Now described' }).expect(200);
    const cleared = await dev.patch(`/v1/apps/${appId}`, { description: null, name: 'Renamed' }).expect(200);
    expect(cleared.body).toMatchObject({ name: 'Renamed', description: null });

    await dev.delete(`/v1/apps/${appId}`).expect(204);
    await dev.get(`/v1/apps/${appId}`).expect(404);
    expect(await app.query('SELECT id FROM apps WHERE id = $1', [appId])).toEqual([]);

    expect((await events.of('app.created')).filter((e) => e.data.appId === appId).map((e) => e.data)).toEqual([created.body]);
    expect((await events.of('app.updated')).filter((e) => e.data.appId === appId).map((e) => e.data)).toEqual([
      { ...updated.body, changed: ['description'], previousAttributes: { description: null } },
      { ...cleared.body, changed: ['name', 'description'], previousAttributes: { name: 'Trimmed', description: 'Now described' } },
    ]);
    expect((await events.of('app.deleted')).filter((e) => e.data.appId === appId)).toEqual([
      expect.objectContaining({ name: 'app.deleted', accountId: dev.accountId, data: { appId } }),
    ]);
    // Payloads are what a webhook receiver gets: plain JSON.
    for (const e of events.events) expect(JSON.parse(JSON.stringify(e.data))).toEqual(e.data);
  });

  it('deleting an app deletes its deployments, their pages and its users', async () => {
    const { appId } = (await dev.post('/v1/apps', { name: 'Short-lived' }).expect(201)).body;
    const deployed = await dev.post('/v1/apps/deploy', { appId, env: 'staging' }).expect(200);
    await dev.post('/v1/users', { appId, email: 'gone@example.com' }).expect(201);
    await dev.delete(`/v1/apps/${appId}`).expect(204);
    expect(await app.query('SELECT id FROM deployments WHERE app_id = $1', [appId])).toEqual([]);
    expect(await app.query('SELECT id FROM users WHERE app_id = $1', [appId])).toEqual([]);
    await app.http().get(new URL(deployed.body.url).pathname).expect(404);
  });

  it('rejects bad bodies and queries with 400, naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{}, 'name must be a string'],
      [{ name: '' }, 'name must be 1 to 100 characters long'],
      [{ name: '   ' }, 'name must be 1 to 100 characters long'],
      [{ name: 'x'.repeat(101) }, 'name must be 1 to 100 characters long'],
      [{ name: 42 }, 'name must be a string'],
      [{ name: 'ok', description: 'x'.repeat(1001) }, 'description must be at most 1000 characters long'],
      [{ name: 'ok', descripton: 'typo' }, 'property descripton should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await dev.post('/v1/apps', body).expect(400);
      expectErrorBody(res.body, 400, message);
    }
    await dev.post('/v1/apps', { name: 'x'.repeat(100), description: 'y'.repeat(1000) }).expect(201);

    const { appId } = (await dev.post('/v1/apps', { name: 'Patch me' }).expect(201)).body;
    expectErrorBody((await dev.patch(`/v1/apps/${appId}`, {}).expect(400)).body, 400, 'name, description');
    expectErrorBody((await dev.patch(`/v1/apps/${appId}`, { name: null }).expect(400)).body, 400, 'name must be a string');
    expectErrorBody((await dev.patch(`/v1/apps/${appId}`, { appId: 'app_x' }).expect(400)).body, 400, 'property appId should not exist');

    for (const limit of ['0', '101', 'abc', '2.5', '']) {
      expectErrorBody((await dev.get(`/v1/apps?limit=${limit}`).expect(400)).body, 400, 'limit must be an integer from 1 to 100');
    }
    expectErrorBody((await dev.get('/v1/apps?cursor=not-a-cursor').expect(400)).body, 400, 'cursor is invalid');
    expectErrorBody((await dev.get('/v1/apps?sort=name').expect(400)).body, 400, 'property sort should not exist');
  });

  it("answers 404 for another account's app, and lists only the caller's", async () => {
    const other = await newAccountClient(app);
    const mine = (await dev.post('/v1/apps', { name: 'Mine' }).expect(201)).body;
    for (const res of [
      await other.get(`/v1/apps/${mine.appId}`),
      await other.patch(`/v1/apps/${mine.appId}`, { name: 'Stolen' }),
      await other.delete(`/v1/apps/${mine.appId}`),
      await other.get('/v1/apps/app_00000000000000000000000000'),
    ]) {
      expect(res.status).toBe(404);
      expectErrorBody(res.body, 404, /^App app_\w+ not found$/);
    }
    await dev.get(`/v1/apps/${mine.appId}`).expect(200, mine);
    expect((await other.get('/v1/apps').expect(200)).body).toEqual({ data: [], nextCursor: null });
  });

  it('needs apps:read to read and apps:write to write', async () => {
    const reader = await scopedClient(app, dev, ['apps:read']);
    const writer = await scopedClient(app, dev, ['apps:write']);
    const denied = await reader.post('/v1/apps', { name: 'Nope' }).expect(403);
    expectErrorBody(denied.body, 403, 'apps:write');
    const created = await writer.post('/v1/apps', { name: 'Written' }).expect(201);
    expectErrorBody((await writer.get('/v1/apps').expect(403)).body, 403, 'apps:read');
    expectErrorBody((await writer.get(`/v1/apps/${created.body.appId}`).expect(403)).body, 403, 'apps:read');
    await reader.get(`/v1/apps/${created.body.appId}`).expect(200);
    await reader.patch(`/v1/apps/${created.body.appId}`, { name: 'x' }).expect(403);
    await reader.delete(`/v1/apps/${created.body.appId}`).expect(403);
    await app.http().get('/v1/apps').expect(401);
  });

  it('pages through 250 apps with limit=100, each exactly once, while apps are being created', async () => {
    const pager = await newAccountClient(app);
    const existing = await inBatches(
      Array.from({ length: 250 }, (_, i) => i),
      25,
      async (i) => {
        const res = await pager.post('/v1/apps', { name: `App ${i}` }).expect(201);
        return res.body.appId as string;
      },
    );

    // Keep creating apps until the paging is done.
    let paging = true;
    const concurrent: string[] = [];
    const creator = (async () => {
      while (paging) {
        const res = await pager.post('/v1/apps', { name: `Concurrent ${concurrent.length}` }).expect(201);
        concurrent.push(res.body.appId);
      }
    })();

    const seen: string[] = [];
    const pageSizes: number[] = [];
    let cursor: string | null = null;
    let last = { createdAt: '9999', appId: '~' };
    try {
      do {
        const res: { body: { data: Array<{ appId: string; createdAt: string }>; nextCursor: string | null } } = await pager
          .get(`/v1/apps?limit=100${cursor ? `&cursor=${cursor}` : ''}`)
          .expect(200);
        pageSizes.push(res.body.data.length);
        for (const a of res.body.data as Array<{ appId: string; createdAt: string }>) {
          // newest first: (createdAt, appId) strictly decreasing
          expect(a.createdAt < last.createdAt || (a.createdAt === last.createdAt && a.appId < last.appId)).toBe(true);
          last = a;
          seen.push(a.appId);
        }
        cursor = res.body.nextCursor;
        if (cursor) expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        // let the creator interleave between pages
        await new Promise((r) => setTimeout(r, 20));
      } while (cursor);
    } finally {
      paging = false;
      await creator;
    }

    expect(concurrent.length).toBeGreaterThan(0);
    expect(new Set(seen).size).toBe(seen.length);
    const seenSet = new Set(seen);
    expect(existing.filter((id) => !seenSet.has(id))).toEqual([]);
    expect(seen.filter((id) => !existing.includes(id) && !concurrent.includes(id))).toEqual([]);
    expect(pageSizes.slice(0, 2)).toEqual([100, 100]);
  });

  it('breaks ties of the same millisecond by id', async () => {
    const tied = await newAccountClient(app);
    const ids = Array.from({ length: 5 }, (_, i) => `app_TIE${String(i).padStart(23, '0')}`);
    for (const id of ids) {
      await app.query(`INSERT INTO apps (id, account_id, name, slug, created_at, updated_at) VALUES ($1, $2, 'Tied', $3, '2025-01-01T00:00:00.123Z', now())`, [
        id,
        tied.accountId,
        id.toLowerCase().replace('_', '-'),
      ]);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: { data: Array<{ appId: string }>; nextCursor: string | null } } = await tied
        .get(`/v1/apps?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
        .expect(200);
      seen.push(...res.body.data.map((a: { appId: string }) => a.appId));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('documents every route with its schemas', async () => {
    const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const json = (op: { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }, status: number) =>
      op.responses[status]?.content?.['application/json']?.schema;
    const create = doc.paths['/v1/apps'].post;
    expect(create.requestBody.content['application/json'].schema).toEqual(ref('CreateAppDto'));
    expect(json(create, 201)).toEqual(ref('AppDto'));
    expect(create.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    for (const status of [400, 401, 403, 409, 415, 429]) expect(json(create, status)).toEqual(ref('ErrorBody'));
    const list = doc.paths['/v1/apps'].get;
    expect(json(list, 200)).toEqual(ref('AppPageDto'));
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['limit', 'cursor']));
    expect(json(doc.paths['/v1/apps/{appId}'].get, 404)).toEqual(ref('ErrorBody'));
    expect(json(doc.paths['/v1/apps/{appId}'].patch, 200)).toEqual(ref('AppDto'));
    expect(doc.paths['/v1/apps/{appId}'].delete.responses['204']).toBeDefined();
    expect(doc.components.schemas.AppDto.properties.appId.example).toMatch(/^app_/);
    expect(doc.components.schemas.AppPageDto.properties.data).toEqual({ type: 'array', items: ref('AppDto'), description: 'Newest first' });
    expect(doc.components.schemas.CreateAppDto.properties.name).toMatchObject({ minLength: 1, maxLength: 100, example: 'Recipe Box' });
    expect(doc.components.schemas.CreateAppDto.required).toEqual(['name']);
  });
});

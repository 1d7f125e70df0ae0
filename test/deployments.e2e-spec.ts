import { ApiClient, EventRecorder, EventRecorderModule, expectErrorBody, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const PUBLIC_URL = 'https://apps.example.test';

describe(`deployments and their pages (${target})`, () => {
  let app: TestApp;
  let events: EventRecorder;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, PUBLIC_URL }, modules: [EventRecorderModule] });
    events = app.server.app.get(EventRecorder);
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  const createApp = async (client: ApiClient, body: object = { name: 'Recipe Box', description: 'Share family recipes.' }) =>
    (await client.post('/v1/apps', body).expect(201)).body as { appId: string; name: string };
  const deploymentCount = async (appId: string) =>
    Number((await app.query<{ n: string }>('SELECT count(*) AS n FROM deployments WHERE app_id = $1', [appId]))[0].n);
  const path = (url: string) => {
    expect(url.startsWith(`${PUBLIC_URL}/sites/`)).toBe(true);
    return url.slice(PUBLIC_URL.length);
  };

  it('deploys: 200 with exactly the contract body, a snapshot row and one deployment.succeeded', async () => {
    const { appId } = await createApp(dev);
    const res = await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
    const { deploymentId, createdAt } = res.body;
    expect(res.body).toEqual({ status: 'success', deploymentId, url: `${PUBLIC_URL}/sites/${deploymentId}/`, appId, env: 'production', createdAt });
    expect(deploymentId).toMatch(/^dep_[0-9A-Z]{26}$/);
    expect(new Date(createdAt).toISOString()).toBe(createdAt);

    const rows = await app.query<{ snapshot: { landingPage: unknown } }>('SELECT account_id, app_id, env, status, snapshot FROM deployments WHERE id = $1', [
      deploymentId,
    ]);
    expect(rows).toEqual([
      {
        account_id: dev.accountId,
        app_id: appId,
        env: 'production',
        status: 'success',
        // Version 2: the app and its landing page (the default one: this app never had another).
        snapshot: {
          schemaVersion: 2,
          app: { name: 'Recipe Box', description: 'Share family recipes.' },
          landingPage: expect.objectContaining({
            schemaVersion: 1,
            hero: { headline: 'Recipe Box', subheadline: 'Share family recipes.', ctaLabel: 'Get early access' },
          }),
        },
      },
    ]);

    const raised = (await events.of('deployment.succeeded')).filter((e) => e.data.deploymentId === deploymentId);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ accountId: dev.accountId, data: { deploymentId, appId, env: 'production', url: res.body.url, createdAt } });
    expect(Object.keys(raised[0].data).sort()).toEqual(['appId', 'createdAt', 'deploymentId', 'env', 'url']);

    const got = await dev.get(`/v1/deployments/${deploymentId}`).expect(200);
    expect(got.body).toEqual({
      ...res.body,
      snapshot: { name: 'Recipe Box', description: 'Share family recipes.', landingPage: rows[0].snapshot.landingPage },
    });
  });

  it('serves the deployed page without auth, escaped, as HTML', async () => {
    const { appId } = await createApp(dev, { name: '<script>alert("x")</script>', description: '<img src=x onerror=alert(1)> & more' });
    const { body } = await dev.post('/v1/apps/deploy', { appId, env: 'staging' }).expect(200);
    const page = await app.http().get(path(body.url)).expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-deployment-id']).toBe(body.deploymentId);
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain('<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</h1>');
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; more');
    expect(page.text).not.toMatch(/<script|<img/i);

    // Without the trailing slash: a redirect to it.
    const bare = await app.http().get(path(body.url).slice(0, -1)).expect(301);
    expect(bare.headers.location).toBe(path(body.url));
    await app.http().get('/sites/dep_00000000000000000000000000/').expect(404);
    await app.http().get('/sites/nothing-here/').expect(404);
    const missing = await app.http().get('/sites/').expect(404);
    expect(missing.body).toMatchObject({ error: true, code: 404 });
  });

  it('keeps each deployment an immutable snapshot; the env alias serves the newest', async () => {
    const { appId } = await createApp(dev, { name: 'Version one' });
    const first = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
    await dev.patch(`/v1/apps/${appId}`, { name: 'Version two' }).expect(200);

    // The old deployment still shows what it snapshotted.
    expect((await app.http().get(path(first.url)).expect(200)).text).toContain('<h1>Version one</h1>');
    expect((await app.http().get(`/sites/${appId}/production/`).expect(200)).text).toContain('<h1>Version one</h1>');

    const second = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
    const staging = (await dev.post('/v1/apps/deploy', { appId, env: 'pr-42' }).expect(200)).body;
    expect(second.deploymentId).not.toBe(first.deploymentId);
    expect((await app.http().get(path(first.url)).expect(200)).text).toContain('<h1>Version one</h1>');
    expect((await app.http().get(path(second.url)).expect(200)).text).toContain('<h1>Version two</h1>');

    const alias = await app.http().get(`/sites/${appId}/production/`).expect(200);
    expect(alias.headers['x-deployment-id']).toBe(second.deploymentId);
    expect(alias.headers['cache-control']).toBe('no-cache');
    expect((await app.http().get(`/sites/${appId}/pr-42/`).expect(200)).headers['x-deployment-id']).toBe(staging.deploymentId);
    expect((await app.http().get(`/sites/${appId}/production`).expect(301)).headers.location).toBe(`/sites/${appId}/production/`);
    await app.http().get(`/sites/${appId}/qa/`).expect(404);

    const listed = await dev.get(`/v1/apps/${appId}/deployments?limit=2`).expect(200);
    expect(listed.body.data.map((d: { deploymentId: string }) => d.deploymentId)).toEqual([staging.deploymentId, second.deploymentId]);
    expect(listed.body.data[1].snapshot).toEqual({
      name: 'Version two',
      description: null,
      landingPage: expect.objectContaining({ hero: expect.objectContaining({ headline: 'Version two' }) }),
    });
    const rest = await dev.get(`/v1/apps/${appId}/deployments?limit=2&cursor=${listed.body.nextCursor}`).expect(200);
    expect(rest.body).toEqual({
      data: [
        {
          ...first,
          snapshot: {
            name: 'Version one',
            description: null,
            landingPage: expect.objectContaining({ hero: expect.objectContaining({ headline: 'Version one' }) }),
          },
        },
      ],
      nextCursor: null,
    });
  });

  it('rejects a bad deploy with 400 naming the field, and creates nothing', async () => {
    const { appId } = await createApp(dev);
    const other = await newAccountClient(app);
    const theirs = await createApp(other);
    const cases: Array<[object, string]> = [
      [{ env: 'production' }, 'appId must be a string'],
      [{ appId: '', env: 'production' }, 'appId should not be empty'],
      [{ appId: 42, env: 'production' }, 'appId must be a string'],
      [{ appId: 'app_00000000000000000000000000', env: 'production' }, 'appId "app_00000000000000000000000000" is not one of your apps'],
      [{ appId: theirs.appId, env: 'production' }, `appId "${theirs.appId}" is not one of your apps`],
      [{ appId }, 'env must be a string'],
      [{ appId, env: 'Prod!' }, 'env must match ^[a-z][a-z0-9-]{0,31}$'],
      [{ appId, env: 'a'.repeat(33) }, 'env must match'],
      [{ appId, env: 42 }, 'env must be a string'],
      [{ appId, env: '1prod' }, 'env must match'],
      [{ appId, env: '' }, 'env must match'],
      [{ appId, env: 'production', force: true }, 'property force should not exist'],
    ];
    for (const [body, message] of cases) {
      const res = await dev.post('/v1/apps/deploy', body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expectErrorBody(res.body, 400, message);
    }
    expect(await deploymentCount(appId)).toBe(0);
    expect(await deploymentCount(theirs.appId)).toBe(0);
    // The boundaries that are fine.
    await dev.post('/v1/apps/deploy', { appId, env: 'a'.repeat(32) }).expect(200);
    await dev.post('/v1/apps/deploy', { appId, env: 'x' }).expect(200);
  });

  it("answers 404 for another account's deployment or app, and for unknown ids", async () => {
    const { appId } = await createApp(dev);
    const mine = (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
    const other = await newAccountClient(app);
    expectErrorBody((await other.get(`/v1/deployments/${mine.deploymentId}`).expect(404)).body, 404, `Deployment ${mine.deploymentId} not found`);
    expectErrorBody((await other.get(`/v1/apps/${appId}/deployments`).expect(404)).body, 404, `App ${appId} not found`);
    await dev.get('/v1/deployments/dep_00000000000000000000000000').expect(404);
    await dev.get('/v1/apps/app_00000000000000000000000000/deployments').expect(404);
    expectErrorBody((await dev.get(`/v1/apps/${appId}/deployments?limit=500`).expect(400)).body, 400, 'limit');
  });

  it('needs deployments:write to deploy and apps:read to read deployments', async () => {
    const { appId } = await createApp(dev);
    const reader = await scopedClient(app, dev, ['apps:read']);
    const deployer = await scopedClient(app, dev, ['deployments:write']);
    expectErrorBody((await reader.post('/v1/apps/deploy', { appId, env: 'production' }).expect(403)).body, 403, 'deployments:write');
    const { deploymentId } = (await deployer.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body;
    expectErrorBody((await deployer.get(`/v1/deployments/${deploymentId}`).expect(403)).body, 403, 'apps:read');
    await deployer.get(`/v1/apps/${appId}/deployments`).expect(403);
    await reader.get(`/v1/deployments/${deploymentId}`).expect(200);
    await app.http().post('/v1/apps/deploy').send({ appId, env: 'production' }).expect(401);
  });

  it('documents the deploy route, its body, answer and errors', async () => {
    const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
    const deploy = doc.paths['/v1/apps/deploy'].post;
    expect(deploy.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DeployDto' });
    expect(deploy.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/DeployResultDto' });
    for (const status of ['400', '401', '403', '409'])
      expect(deploy.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    expect(doc.components.schemas.DeployDto.properties.env).toMatchObject({ pattern: '^[a-z][a-z0-9-]{0,31}$', example: 'production' });
    expect(doc.components.schemas.DeployResultDto.required).toEqual(expect.arrayContaining(['status', 'deploymentId', 'url', 'appId', 'env', 'createdAt']));
    expect(doc.paths['/v1/deployments/{deploymentId}'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/DeploymentDto');
    expect(doc.paths['/v1/apps/{appId}/deployments'].get.responses['200'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/DeploymentPageDto',
    );
  });
});

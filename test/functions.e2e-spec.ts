import { PlatformClient } from '../libs/sdk/src/index.js';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { uploadAll } from './support/files.js';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { siteRequest } from './support/site-http.js';
import { until } from './support/webhook-receiver.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { startOpenAiStub, type OpenAiStub } from './support/openai-stub.js';
import { createAccountOn, everyRow, everyRowOf } from './support/privacy.js';
import request from 'supertest';
import { startChildServer } from './support/child-server.js';
import { clientFor } from './support/api-client.js';
import { dropFreshResources, freshEnvironment } from './support/test-app.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { FunctionsMeter } from '../src/billing/functions-meter.js';
import { ADMIN_TOKEN } from './support/test-app.js';

/** The app's server code: a JSON API that shows what it was given, importing a file of its own folder. */
const SERVER = `
import { greeting } from './lib/greeting.js';
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/api/throw') throw new Error('the handler failed on purpose');
    if (url.pathname === '/api/log') {
      console.log('a visit to', url.pathname);
      console.warn('careful');
      return new Response('logged');
    }
    if (url.pathname === '/api/flood') {
      for (let i = 0; i < 500; i++) console.log('flood line ' + i);
      return new Response('flooded');
    }
    if (url.pathname === '/api/slow') {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return new Response('slow');
    }
    if (url.pathname === '/api/stream') {
      // A first chunk at once; the rest never comes: the visitor leaves (the request's signal), or the instance ends.
      return new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('first;'));
            if (url.searchParams.has('end-instance')) setTimeout(() => Deno.exit(3), 100);
            request.signal.addEventListener('abort', () => {
              console.log('the visitor left the stream');
              controller.close();
            });
          },
        }),
      );
    }
    if (url.pathname === '/api/page') return new Response('<h1>From the function</h1>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.text();
    const headers = Object.fromEntries(request.headers);
    return Response.json(
      { greeting: greeting(), method: request.method, url: request.url, headers, body, env },
      { status: url.pathname === '/api/created' ? 201 : 200, headers: { 'set-cookie': 'session=abc; Path=/; HttpOnly', 'x-app': 'notes', connection: 'x-app' } },
    );
  },
};
`;
const FILES = {
  '/index.html': '<!doctype html><h1>Notes</h1>',
  '/api.html': '<!doctype html><h1>Not under /api/</h1>',
  '/_server/index.js': SERVER,
  '/_server/lib/greeting.js': 'export const greeting = () => "hello from the server";\n',
};
const FUNCTIONS = { entry: '/_server/index.js', routes: ['/api/*', '/hooks/stripe'] };

/** Server code that calls the platform with its PLATFORM_TOKEN: `POST /api/platform { method, path, body }` → the platform's answer. */
const PLATFORM_CALLER = `
export default {
  async fetch(request, env) {
    const { method, path, body } = await request.json();
    const answer = await fetch(env.PLATFORM_URL + path, {
      method,
      headers: { authorization: 'Bearer ' + env.PLATFORM_TOKEN, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    console.log('platform answered', answer.status);
    return new Response(await answer.text(), { status: answer.status, headers: { 'content-type': answer.headers.get('content-type') ?? 'text/plain' } });
  },
};
`;

describe(`functions: deploying server code and serving it (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let appId: string;
  let port: string;
  const labelOf = (id: string) => id.toLowerCase().replace('_', '-');
  const deploy = async (files: Record<string, string>, config: Record<string, unknown>) => {
    const manifest = await uploadAll(app, dev, files);
    return dev.post('/v1/apps/deploy', { appId, env: 'production', files: manifest, config });
  };
  const deploymentCount = async () =>
    Number(((await app.query(`SELECT count(*)::int AS n FROM deployments WHERE app_id = $1`, [appId])) as Array<{ n: number }>)[0].n);

  let ai: OpenAiStub;

  beforeAll(async () => {
    // An operator's plan with a hard quota on function requests (the built-in plans' are soft).
    const plans = join(mkdtempSync(join(tmpdir(), 'fn-plans-')), 'plans.json');
    writeFileSync(
      plans,
      JSON.stringify({
        'fn-capped': {
          name: 'Capped',
          priceCents: 0,
          requestsPerMinute: 100_000,
          aiRequestsPerMinute: 100,
          meters: { 'functions.requests': { included: 3, hard: true } },
        },
      }),
    );
    ai = await startOpenAiStub();
    app = await startTestApp({
      env: {
        ...NO_RATE_LIMIT,
        TRUST_PROXY: 'true',
        FUNCTIONS_MAX_BODY_BYTES: '2048',
        FUNCTIONS_LOGS_KEEPALIVE_MS: '300',
        PLANS_FILE: plans,
        AI_PROVIDER: 'openai',
        AI_BASE_URL: ai.url,
        AI_MODEL: 'stub-model',
      },
    });
    port = new URL(app.url).port;
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Pocket Notes', slug: 'pocket-notes-fn' }).expect(201)).body.appId;
  });
  afterAll(async () => {
    await app?.close();
    await ai?.close();
  });

  describe('deploying', () => {
    it('refuses routes that are not 1–20 paths, cover the platform paths or hold * elsewhere, naming each', async () => {
      const cases: Array<[unknown, string]> = [
        [{ entry: '/_server/index.js', routes: ['/*'] }, 'config.functions.routes[0] covers /signup'],
        [{ entry: '/_server/index.js', routes: ['/api/*', '/signup'] }, 'config.functions.routes[1] covers /signup'],
        [{ entry: '/_server/index.js', routes: ['/thanks/*'] }, 'config.functions.routes[0] covers /thanks'],
        [{ entry: '/_server/index.js', routes: ['/_platform/*'] }, 'config.functions.routes[0] covers /_platform/*'],
        [{ entry: '/_server/index.js', routes: ['/_platform/collect'] }, 'config.functions.routes[0] covers /_platform/*'],
        [{ entry: '/_server/index.js', routes: ['/api*'] }, 'config.functions.routes[0] may hold * only as its last segment'],
        [{ entry: '/_server/index.js', routes: ['api/*'] }, 'config.functions.routes[0] must be a path starting with /'],
        [{ entry: '/_server/index.js', routes: [] }, 'config.functions.routes must be an array of 1 to 20 paths'],
        [{ entry: '/_server/index.js', routes: Array.from({ length: 21 }, (_, i) => `/api${i}/*`) }, 'config.functions.routes must be an array of 1 to 20'],
        [{ entry: '/index.js' }, 'config.functions.entry must be inside a folder'],
        [{ entry: 42 }, 'config.functions.entry must be the path of one of the deployment'],
        [{ entry: '/_server/index.js', runtime: 'node' }, 'property config.functions.runtime should not exist'],
        ['/_server/index.js', 'config.functions must be an object'],
      ];
      const before = await deploymentCount();
      for (const [functions, message] of cases) {
        const res = await deploy(FILES, { functions });
        expect([JSON.stringify(functions).slice(0, 60), res.status]).toEqual([JSON.stringify(functions).slice(0, 60), 400]);
        expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(message);
      }
      expect(await deploymentCount()).toBe(before);
    });

    it('refuses a module that does not load with function_invalid and the loader message, deploying nothing', async () => {
      const before = await deploymentCount();
      const cases: Array<[Record<string, string>, string, RegExp]> = [
        [
          { ...FILES, '/_server/index.js': 'export default { fetch(request) { return new Response("x") ' },
          '/_server/index.js',
          /SyntaxError|Unexpected|expected/i,
        ],
        [{ ...FILES, '/_server/index.js': 'export const handler = () => 1;' }, '/_server/index.js', /fetch/],
        [{ ...FILES, '/_server/index.js': 'throw new Error("no database configured");' }, '/_server/index.js', /no database configured/],
        [FILES, '/_server/missing.js', /missing\.js/],
      ];
      for (const [files, entry, loader] of cases) {
        const res = await deploy(files, { functions: { entry } });
        expect(res.status).toBe(400);
        expect(res.body.reason).toBe('function_invalid');
        expect(res.body.message).toContain(`config.functions.entry ${entry} did not load`);
        expect(res.body.loaderMessage).toMatch(loader);
        expect(Buffer.byteLength(res.body.loaderMessage)).toBeLessThanOrEqual(1024);
      }
      expect(await deploymentCount()).toBe(before);
    });
  });

  describe('serving', () => {
    let deploymentId: string;
    let host: string;
    const site = (path: string, options: Parameters<typeof siteRequest>[3] = {}) => siteRequest(app.url, host, path, options);

    beforeAll(async () => {
      const res = await deploy(FILES, { functions: FUNCTIONS });
      expect(res.status).toBe(200);
      deploymentId = res.body.deploymentId;
      host = `${labelOf(deploymentId)}.localhost:${port}`;
      expect(res.body.config).toEqual({ functions: FUNCTIONS });
    });

    it('shows the functions config on the deployment, with the default routes when none are given', async () => {
      const shown = (await dev.get(`/v1/deployments/${deploymentId}`).expect(200)).body;
      expect(shown.config.functions).toEqual(FUNCTIONS);
      const defaulted = await deploy(FILES, { functions: { entry: '/_server/index.js' } });
      expect(defaulted.body.config.functions).toEqual({ entry: '/_server/index.js', routes: ['/api/*'] });
      const row = (await app.query(`SELECT config FROM deployments WHERE id = $1`, [defaulted.body.deploymentId])) as Array<{ config: { functions: unknown } }>;
      expect(row[0].config.functions).toEqual({ entry: '/_server/index.js', routes: ['/api/*'] });
    });

    it("answers a route from the function, with the visitor's request shaped as the contract says", async () => {
      const answer = await site('/api/notes?tag=work', {
        headers: {
          accept: 'application/json',
          'x-forwarded-for': '203.0.113.9',
          'x-real-ip': '198.51.100.1',
          'x-platform-secret': 'nope',
          'x-custom': 'kept',
          connection: 'keep-alive, x-custom-hop',
          'x-custom-hop': 'dropped',
        },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers['set-cookie']).toEqual(['session=abc; Path=/; HttpOnly']);
      expect(answer.headers['x-app']).toBeUndefined(); // named by the function's Connection header: hop-by-hop
      expect(answer.headers['x-request-id']).toBeTruthy();
      expect(answer.headers['x-robots-tag']).toBe('noindex'); // a preview origin
      const seen = JSON.parse(answer.text);
      expect(seen.greeting).toBe('hello from the server');
      expect(seen.method).toBe('GET');
      expect(seen.url).toBe(`http://${host}/api/notes?tag=work`);
      expect(seen.headers['x-real-ip']).toBe('203.0.113.9');
      expect(seen.headers['x-custom']).toBe('kept');
      for (const name of ['x-forwarded-for', 'x-platform-secret', 'x-custom-hop', 'connection']) expect([name, seen.headers[name]]).toEqual([name, undefined]);
      expect(seen.env).toEqual({ PLATFORM_URL: `${app.url}/v1`, PLATFORM_TOKEN: `dt_${deploymentId}.${seen.env.PLATFORM_TOKEN.split('.')[1]}` });
      expect(seen.env.PLATFORM_TOKEN).toMatch(/^dt_dep_\w+\.[\w-]{43}$/);
      expect(seen.body).toBeNull();
    });

    it('takes every method and the body, and an exact route', async () => {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        // (Node's client frames a DELETE's body only with a Content-Length.)
        const answer = await site('/api/created', { method, headers: { 'content-type': 'text/csv', 'content-length': '8' }, body: 'a,b\n1,2\n' });
        expect([method, answer.status]).toEqual([method, 201]);
        const seen = JSON.parse(answer.text);
        expect([seen.method, seen.body, seen.headers['content-type']]).toEqual([method, 'a,b\n1,2\n', 'text/csv']);
      }
      const hook = await site('/hooks/stripe', { method: 'POST', body: '{"id":"evt_1"}', headers: { 'content-type': 'application/json' } });
      expect(JSON.parse(hook.text).body).toBe('{"id":"evt_1"}');
      expect(JSON.parse((await site('/api')).text).url).toBe(`http://${host}/api`);
    });

    it('serves files outside the routes as before, and never the code folder', async () => {
      const index = await site('/');
      expect(index.status).toBe(200);
      expect(index.text).toBe(FILES['/index.html']);
      expect((await site('/api.html')).text).toBe(FILES['/api.html']);
      for (const path of ['/_server/index.js', '/_server/lib/greeting.js', '/_server/', '/_server']) {
        const answer = await site(path);
        expect([path, answer.status]).toEqual([path, 404]);
        expect(answer.text).not.toContain('greeting');
      }
      // Not on the environment's origin either.
      const envHost = `production--pocket-notes-fn.localhost:${port}`;
      const onEnv = await siteRequest(app.url, envHost, '/_server/index.js');
      expect(onEnv.status).toBe(404);
      expect(JSON.parse((await siteRequest(app.url, envHost, '/api/x')).text).url).toBe(`http://${envHost}/api/x`);
    });

    it("keeps the platform's paths: /signup, /thanks and /_platform/* are never the function's", async () => {
      const tracker = await site('/_platform/analytics.js');
      expect(tracker.status).toBe(200);
      expect(tracker.headers['content-type']).toMatch(/javascript/);
      expect((await site('/thanks')).status).toBe(200);
    });

    it('answers 413 past FUNCTIONS_MAX_BODY_BYTES and 502 when the function throws, without its error', async () => {
      const big = await site('/api/upload', { method: 'POST', body: 'x'.repeat(4096), headers: { 'content-type': 'text/plain' } });
      expect(big.status).toBe(413);
      expect(big.headers['content-type']).toMatch(/^text\/html/);
      const thrown = await site('/api/throw');
      expect(thrown.status).toBe(502);
      expect(thrown.text).toContain('server code failed');
      expect(thrown.text).not.toContain('on purpose');
    });
  });

  describe('environment variables and secrets', () => {
    const SECRET = 'sk_live_never_in_plain_9f8e7d';
    const vars = (env = 'production') => `/v1/apps/${appId}/environments/${env}/vars`;
    const envOf = async (deploymentId: string) => {
      const answer = await siteRequest(app.url, `${labelOf(deploymentId)}.localhost:${port}`, '/api/env');
      expect(answer.status).toBe(200);
      return JSON.parse(answer.text).env as Record<string, string>;
    };

    it('sets, lists and deletes variables; a secret is sealed at rest and never shown again', async () => {
      const plain = await dev.put(`${vars()}/API_BASE`, { value: 'https://api.example.com' }).expect(200);
      expect(plain.body).toEqual({ name: 'API_BASE', secret: false, value: 'https://api.example.com', updatedAt: expect.any(String) });
      const secret = await dev.put(`${vars()}/STRIPE_KEY`, { value: SECRET, secret: true }).expect(200);
      expect(secret.body).toEqual({ name: 'STRIPE_KEY', secret: true, updatedAt: expect.any(String) });
      const listed = (await dev.get(vars()).expect(200)).body;
      expect(listed.data.map((v: { name: string; value?: string }) => [v.name, v.value])).toEqual([
        ['API_BASE', 'https://api.example.com'],
        ['STRIPE_KEY', undefined],
      ]);
      expect(JSON.stringify(listed)).not.toContain(SECRET);
      const rows = (await app.query(`SELECT name, secret, value FROM env_vars WHERE app_id = $1 ORDER BY name`, [appId])) as Array<{ value: string }>;
      expect(rows[1]).toMatchObject({ name: 'STRIPE_KEY', secret: true });
      expect(rows[1].value).toMatch(/^enc:v1:/);
      expect(rows[1].value).not.toContain(SECRET);
      // Names only in the audit log.
      const audit = (await app.query(`SELECT action, target_id FROM audit_log WHERE target_id LIKE $1 ORDER BY created_at`, [`${appId}/%`])) as Array<{
        action: string;
        target_id: string;
      }>;
      expect(audit.map((a) => [a.action, a.target_id])).toEqual([
        ['env_var.set', `${appId}/production/API_BASE`],
        ['env_var.set', `${appId}/production/STRIPE_KEY`],
      ]);
      await dev.put(`${vars('staging')}/ONLY_STAGING`, { value: '1' }).expect(200);
      expect((await dev.get(vars('staging')).expect(200)).body.data.map((v: { name: string }) => v.name)).toEqual(['ONLY_STAGING']);
      await dev.delete(`${vars('staging')}/ONLY_STAGING`).expect(204);
      const again = await dev.delete(`${vars('staging')}/ONLY_STAGING`).expect(404);
      expect(again.body.reason).toBe('env_var_not_found');
    });

    it('refuses bad names, values and environments, naming them', async () => {
      const cases: Array<[string, unknown, string]> = [
        [`${vars()}/lower_case`, { value: 'x' }, 'name must match'],
        [`${vars()}/9LIVES`, { value: 'x' }, 'name must match'],
        [`${vars()}/${'A'.repeat(65)}`, { value: 'x' }, 'name must match'],
        [`${vars()}/PLATFORM_TOKEN`, { value: 'x' }, 'name must not start with PLATFORM_'],
        [`${vars()}/BIG`, { value: 'x'.repeat(64 * 1024 + 1) }, 'value must be at most 65536 bytes'],
        [`${vars()}/NUMBER`, { value: 42 }, 'value must be a string'],
        [`${vars()}/FLAG`, { value: 'x', secret: 'yes' }, 'secret must be a boolean'],
        [`${vars('Prod!')}/OK`, { value: 'x' }, 'env must match'],
      ];
      for (const [path, body, message] of cases) {
        const res = await dev.put(path, body as object);
        expect([path.slice(-30), res.status]).toEqual([path.slice(-30), 400]);
        expect(res.body.message).toContain(message);
      }
      expect((await dev.get(vars()).expect(200)).body.data).toHaveLength(2);
    });

    it('holds at most 100 variables per environment', async () => {
      for (let i = 0; i < 100; i++) await dev.put(`${vars('full')}/V${i}`, { value: String(i) }).expect(200);
      const over = await dev.put(`${vars('full')}/ONE_MORE`, { value: 'x' }).expect(400);
      expect(over.body.message).toContain('holds 100 variables already');
      await dev.put(`${vars('full')}/V0`, { value: 'changed' }).expect(200); // a change is no new one
    });

    it("a deployment takes its environment's variables as they are when deployed; its instance's env holds them", async () => {
      const first = (await deploy(FILES, { functions: FUNCTIONS })).body.deploymentId as string;
      const shown = (await dev.get(`/v1/deployments/${first}`).expect(200)).body;
      expect(shown.variables).toEqual(['API_BASE', 'STRIPE_KEY']);
      expect(JSON.stringify(shown)).not.toContain(SECRET);
      const [row] = (await app.query(`SELECT function_vars FROM deployments WHERE id = $1`, [first])) as Array<{ function_vars: unknown }>;
      expect(JSON.stringify(row.function_vars)).not.toContain(SECRET);
      expect(await envOf(first)).toEqual({
        API_BASE: 'https://api.example.com',
        STRIPE_KEY: SECRET,
        PLATFORM_URL: `${app.url}/v1`,
        PLATFORM_TOKEN: expect.any(String),
      });

      await dev.put(`${vars()}/API_BASE`, { value: 'https://api2.example.com' }).expect(200);
      await dev.delete(`${vars()}/STRIPE_KEY`).expect(204);
      expect((await envOf(first)).API_BASE).toBe('https://api.example.com'); // the old deployment keeps its copy
      const second = (await deploy(FILES, { functions: FUNCTIONS })).body.deploymentId as string;
      expect(await envOf(second)).toEqual({ API_BASE: 'https://api2.example.com', PLATFORM_URL: `${app.url}/v1`, PLATFORM_TOKEN: expect.any(String) });
      expect((await dev.get(`/v1/deployments/${second}`).expect(200)).body.variables).toEqual(['API_BASE']);
    });
  });

  describe('PLATFORM_TOKEN', () => {
    const CALLER_FILES = { '/index.html': '<!doctype html><h1>Sign up</h1>', '/_server/index.js': PLATFORM_CALLER };
    const deployCaller = async (env = 'production') => {
      const manifest = await uploadAll(app, dev, CALLER_FILES);
      const res = await dev.post('/v1/apps/deploy', { appId, env, files: manifest, config: { functions: { entry: '/_server/index.js' } } }).expect(200);
      return res.body.deploymentId as string;
    };
    /** The platform's answer to a call the deployment's function makes with its token. */
    const callFrom = async (deploymentId: string, method: string, path: string, body?: object) => {
      const answer = await siteRequest(app.url, `${labelOf(deploymentId)}.localhost:${port}`, '/api/platform', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method, path, body }),
      });
      return { status: answer.status, body: answer.text.startsWith('{') ? JSON.parse(answer.text) : answer.text };
    };
    const signUp = (deploymentId: string, email: string, app_ = appId) => callFrom(deploymentId, 'POST', '/users', { appId: app_, email });

    it('signs a visitor up as the account, and calls the AI routes', async () => {
      const deploymentId = await deployCaller();
      const signed = await signUp(deploymentId, 'visitor-one@example.com');
      expect(signed).toEqual({
        status: 201,
        body: { id: expect.stringMatching(/^usr_/), appId, email: 'visitor-one@example.com', createdAt: expect.any(String) },
      });
      const [row] = (await app.query(`SELECT account_id, app_id FROM users WHERE id = $1`, [signed.body.id])) as Array<{ account_id: string; app_id: string }>;
      expect(row).toEqual({ account_id: dev.accountId, app_id: appId });

      const generated = await callFrom(deploymentId, 'POST', '/ai/generate', { prompt: 'Say hello [from a function]', maxTokens: 20 });
      expect(generated.status).toBe(200);
      expect(generated.body.text).toBe('The stub says hello.');
      expect(ai.requestsWith('[from a function]')).toHaveLength(1);
      const [usage] = (await app.query(`SELECT account_id, total_tokens FROM ai_usage WHERE id = $1`, [generated.body.id])) as Array<{ account_id: string }>;
      expect(usage).toMatchObject({ account_id: dev.accountId });
    });

    it('holds users:write and ai:generate only, for its own app only', async () => {
      const deploymentId = await deployCaller();
      for (const [method, path, scope] of [
        ['GET', '/users', 'users:read'],
        ['GET', `/apps/${appId}`, 'apps:read'],
        ['GET', `/deployments/${deploymentId}/logs`, 'apps:read'],
        ['PUT', `/apps/${appId}/environments/production/vars/STOLEN`, 'deployments:write'],
        ['POST', '/api-keys', 'keys:write'],
      ]) {
        const answer = await callFrom(deploymentId, method, path, method === 'GET' ? undefined : { name: 'x', value: 'x', scopes: ['*'] });
        expect([path, answer.status, answer.body.reason]).toEqual([path, 403, 'missing_scope']);
        expect(answer.body.message).toContain(scope);
      }
      const otherApp = (await dev.post('/v1/apps', { name: 'Other app', slug: 'other-app-fn-token' }).expect(201)).body.appId as string;
      const elsewhere = await signUp(deploymentId, 'visitor-two@example.com', otherApp);
      expect(elsewhere.status).toBe(403);
      expect(elsewhere.body).toMatchObject({ error: true, code: 403, reason: 'credential_bound_to_app', appId });
      expect(await app.query(`SELECT id FROM users WHERE app_id = $1`, [otherApp])).toEqual([]);
      // Erasing: its own app's users only; another app's user is not found (and stays).
      const theirs = (await dev.post('/v1/users', { appId: otherApp, email: 'kept@example.com' }).expect(201)).body.id as string;
      const erased = await callFrom(deploymentId, 'DELETE', `/users/${theirs}`);
      expect([erased.status, erased.body.reason]).toEqual([404, 'user_not_found']);
      expect(await app.query(`SELECT id FROM users WHERE id = $1`, [theirs])).toHaveLength(1);
    });

    it('stops working at once when a newer deployment supersedes it, unless it is published', async () => {
      const first = await deployCaller();
      expect((await signUp(first, 'before-second@example.com')).status).toBe(201);
      const second = await deployCaller(); // the first is neither the newest nor published any more
      const refused = await signUp(first, 'after-second@example.com');
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: true, code: 401, reason: 'invalid_credential' });
      expect((await signUp(second, 'by-second@example.com')).status).toBe(201);

      // Published: it keeps working when superseded; publishing another ends it.
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: second }).expect(200);
      const third = await deployCaller();
      expect((await signUp(second, 'published-superseded@example.com')).status).toBe(201);
      expect((await signUp(third, 'by-third@example.com')).status).toBe(201);
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: third }).expect(200);
      expect((await signUp(second, 'after-republish@example.com')).status).toBe(401);
      // A deploy to another environment supersedes nothing here.
      await deployCaller('staging');
      expect((await signUp(third, 'after-staging@example.com')).status).toBe(201);
      expect(await app.query(`SELECT email FROM users WHERE email IN ('after-second@example.com', 'after-republish@example.com')`)).toEqual([]);
    });

    it('answers 401 for a forged or altered token', async () => {
      const deploymentId = await deployCaller();
      // A token as a function sees it (the JSON API's code shows its env).
      const shown = await deploy(FILES, { functions: FUNCTIONS });
      const real = JSON.parse((await siteRequest(app.url, `${labelOf(shown.body.deploymentId)}.localhost:${port}`, '/api/env')).text).env
        .PLATFORM_TOKEN as string;
      expect((await app.http().get('/v1/users').set('authorization', `Bearer ${real}`).expect(403)).body.reason).toBe('missing_scope');
      const [, signature] = real.split('.');
      for (const forged of [`dt_${deploymentId}.${signature}`, `${real.slice(0, -2)}AA`, `dt_${shown.body.deploymentId}`, 'dt_.x']) {
        const answer = await app.http().post('/v1/users').set('authorization', `Bearer ${forged}`).send({ appId, email: 'forged@example.com' });
        expect([forged.slice(0, 12), answer.status, answer.body.reason]).toEqual([forged.slice(0, 12), 401, 'invalid_credential']);
      }
    });

    it('is stored nowhere in clear', async () => {
      const shown = await deploy(FILES, { functions: FUNCTIONS });
      const token = JSON.parse((await siteRequest(app.url, `${labelOf(shown.body.deploymentId)}.localhost:${port}`, '/api/env')).text).env
        .PLATFORM_TOKEN as string;
      const caller = await deployCaller();
      expect((await signUp(caller, 'stored-nowhere@example.com')).status).toBe(201);
      await until(
        async () => ((await app.query(`SELECT 1 FROM function_logs WHERE deployment_id = $1 AND level = 'request'`, [caller])) as unknown[]).length > 0,
      );
      const rows = await everyRow((sql) => app.query(sql));
      expect(rows).toContain('stored-nowhere@example.com');
      expect(rows).not.toContain(token);
      expect(rows).not.toContain(token.split('.')[1]);
    });
  });

  describe('PLATFORM_TOKEN in a real process', () => {
    it('is in none of its log lines (debug level) and in no table', async () => {
      const env = await freshEnvironment();
      const child = await startChildServer({ ...env, ...NO_RATE_LIMIT }, undefined, 'debug');
      let token: string | undefined;
      try {
        const { apiKey, accountId } = await createAccountOn(child.url);
        const server = { http: () => request.agent(child.url) } as unknown as TestApp;
        const client = clientFor(server, accountId, apiKey);
        const childPort = new URL(child.url).port;
        const id = (await client.post('/v1/apps', { name: 'Logged' }).expect(201)).body.appId as string;
        const deployTo = async (files: Record<string, string>) =>
          (
            await client
              .post('/v1/apps/deploy', {
                appId: id,
                env: 'production',
                files: await uploadAll(server, client, files),
                config: { functions: { entry: '/_server/index.js' } },
              })
              .expect(200)
          ).body.deploymentId as string;
        const shown = await deployTo(FILES);
        token = JSON.parse((await siteRequest(child.url, `${labelOf(shown)}.localhost:${childPort}`, '/api/env')).text).env.PLATFORM_TOKEN as string;
        expect(token).toMatch(/^dt_/);
        const caller = await deployTo({ '/index.html': '<!doctype html>', '/_server/index.js': PLATFORM_CALLER });
        const signed = await siteRequest(child.url, `${labelOf(caller)}.localhost:${childPort}`, '/api/platform', {
          method: 'POST',
          body: JSON.stringify({ method: 'POST', path: '/users', body: { appId: id, email: 'logged-nowhere@example.com' } }),
        });
        expect(signed.status).toBe(201);
        // The superseded one's token refused: its 401 is logged too.
        expect((await request(child.url).get('/v1/users').set('authorization', `Bearer ${token}`)).status).toBe(401);
      } finally {
        await child.stop();
      }
      try {
        const log = child.output();
        expect(log).toMatch(/"url":"\/v1\/users"/); // the requests were logged...
        const signature = token!.split('.')[1];
        expect(log).not.toContain(signature); // ...without the token
        const rows = await everyRowOf(env);
        expect(rows).toContain('logged-nowhere@example.com');
        expect(rows).not.toContain(signature);
      } finally {
        await dropFreshResources(env);
      }
    });
  });

  describe('meters and analytics', () => {
    /** A fresh account with an app deployed with FILES and its origin. */
    const fresh = async () => {
      const client = await newAccountClient(app);
      const id = (await client.post('/v1/apps', { name: 'Metered' }).expect(201)).body.appId as string;
      const manifest = await uploadAll(app, client, FILES);
      const deployed = (await client.post('/v1/apps/deploy', { appId: id, env: 'production', files: manifest, config: { functions: FUNCTIONS } }).expect(200))
        .body;
      return { client, appId: id, host: `${labelOf(deployed.deploymentId)}.localhost:${port}`, deploymentId: deployed.deploymentId as string };
    };
    const functionRows = async (accountId: string) =>
      (await app.query(`SELECT meter, quantity::int AS quantity FROM usage_records WHERE account_id = $1 AND meter LIKE 'functions.%' ORDER BY meter`, [
        accountId,
      ])) as Array<{ meter: string; quantity: number }>;

    it('counts functions.requests and functions.duration_ms (wall time) per account, written in batches, in usage and statements', async () => {
      const { client, host } = await fresh();
      for (const path of ['/api/a', '/api/b', '/api/slow']) expect((await siteRequest(app.url, host, path)).status).toBe(200);
      expect((await siteRequest(app.url, host, '/api/throw')).status).toBe(502); // it ran: counted too
      expect((await siteRequest(app.url, host, '/index.html')).status).toBe(200); // a file: not a function request
      await app.server.app.get(FunctionsMeter).flush();
      const rows = await functionRows(client.accountId);
      const total = (meter: string) => rows.filter((r) => r.meter === meter).reduce((sum, r) => sum + r.quantity, 0);
      // No write per request: a row per batch (the flush above, and the 10 s one if it came between the requests).
      expect(rows.filter((r) => r.meter === 'functions.requests').length).toBeLessThan(4);
      expect(total('functions.requests')).toBe(4);
      expect(total('functions.duration_ms')).toBeGreaterThanOrEqual(150);

      const usage = (await client.get('/v1/billing').expect(200)).body.usage as Array<Record<string, unknown>>;
      expect(usage.find((u) => u.meter === 'functions.requests')).toEqual({ meter: 'functions.requests', used: 4, included: 100_000, percent: 0, hard: false });
      expect(usage.find((u) => u.meter === 'functions.duration_ms')).toEqual({
        meter: 'functions.duration_ms',
        used: total('functions.duration_ms'),
        included: 10_000_000,
        percent: 0,
        hard: false,
        memoryMb: 128,
      });
      const [statement] = (await client.get('/v1/billing/statements').expect(200)).body.data;
      const lines = statement.lines as Array<Record<string, unknown>>;
      expect(lines.find((l) => l.meter === 'functions.requests')).toMatchObject({ quantity: 4, included: 100_000, overage: 0, amountCents: 0 });
      expect(lines.find((l) => l.meter === 'functions.duration_ms')).toMatchObject({ quantity: total('functions.duration_ms'), memoryMb: 128 });
    });

    it('answers the 503 page with Retry-After once a hard quota is used up, without running the function; files are still served', async () => {
      const { client, host, deploymentId } = await fresh();
      await app.http().put(`/v1/admin/accounts/${client.accountId}/plan`).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ plan: 'fn-capped' }).expect(200);
      for (let i = 0; i < 3; i++) expect((await siteRequest(app.url, host, `/api/run-${i}`)).status).toBe(200);
      const refused = await siteRequest(app.url, host, '/api/run-4');
      expect(refused.status).toBe(503);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      const periodEnd = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1);
      expect(Math.abs(Number(refused.headers['retry-after']) - (periodEnd - Date.now()) / 1000)).toBeLessThan(60);
      expect((await siteRequest(app.url, host, '/')).status).toBe(200);
      // Still refused once the counts are in the ledger (another process reads them there).
      await app.server.app.get(FunctionsMeter).flush();
      expect((await siteRequest(app.url, host, '/api/run-5')).status).toBe(503);
      await until(async () => ((await client.get(`/v1/deployments/${deploymentId}/logs`).expect(200)).body.data as unknown[]).length >= 4);
      const requests = ((await client.get(`/v1/deployments/${deploymentId}/logs`).expect(200)).body.data as Array<{ level: string; message: string }>).filter(
        (l) => l.level === 'request',
      );
      expect(requests.map((l) => l.message.split(' ')[1])).toEqual(['/api/run-0', '/api/run-1', '/api/run-2']);
      await app.server.app.get(FunctionsMeter).flush();
      const counted = (await functionRows(client.accountId)).filter((r) => r.meter === 'functions.requests');
      expect(counted.reduce((sum, r) => sum + r.quantity, 0)).toBe(3);
    });

    it("counts a function's 200 text/html answer to a GET as a pageview, like a file's", async () => {
      const { client, appId: id, host } = await fresh();
      const browser = {
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
        accept: 'text/html',
        'x-forwarded-for': '203.0.113.50',
      };
      expect((await siteRequest(app.url, host, '/api/page', { headers: { ...browser, 'sec-fetch-mode': 'navigate' } })).status).toBe(200);
      expect((await siteRequest(app.url, host, '/index.html', { headers: browser })).status).toBe(200);
      // Not pageviews: JSON, a POST, a script's fetch of the page, a 502.
      await siteRequest(app.url, host, '/api/notes', { headers: browser });
      await siteRequest(app.url, host, '/api/page', { method: 'POST', headers: browser, body: 'x' });
      await siteRequest(app.url, host, '/api/page', { headers: { ...browser, 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' } });
      await siteRequest(app.url, host, '/api/throw', { headers: browser });
      await app.server.app.get(AnalyticsBuffer).flush();
      const pages = (await client.get(`/v1/apps/${id}/analytics/breakdown?period=day&property=page&metrics=pageviews`).expect(200)).body.data as Array<{
        page: string;
        pageviews: number;
      }>;
      expect(pages.map((p) => [p.page, p.pageviews]).sort()).toEqual([
        ['/api/page', 1],
        ['/index.html', 1],
      ]);
    });
  });

  describe('logs', () => {
    let deploymentId: string;
    let host: string;
    const logs = async (query = '') =>
      (await dev.get(`/v1/deployments/${deploymentId}/logs${query}`).expect(200)).body.data as Array<{ at: string; level: string; message: string }>;

    beforeAll(async () => {
      deploymentId = (await deploy(FILES, { functions: FUNCTIONS })).body.deploymentId;
      host = `${labelOf(deploymentId)}.localhost:${port}`;
    });

    it("keeps console output and request lines, without the visitor's address, headers or query string", async () => {
      const answer = await siteRequest(app.url, host, '/api/log?email=visitor%40example.com&token=abc', {
        headers: { 'x-forwarded-for': '203.0.113.77', 'user-agent': 'VisitorAgent/1.0', cookie: 'session=visitor-cookie' },
      });
      expect(answer.text).toBe('logged');
      await until(async () => (await logs()).some((l) => l.level === 'request'));
      const lines = await logs();
      expect(lines.find((l) => l.level === 'info')?.message).toBe('a visit to /api/log');
      expect(lines.find((l) => l.level === 'warn')?.message).toBe('careful');
      expect(lines.find((l) => l.level === 'request')?.message).toMatch(/^GET \/api\/log 200 \d+ms$/);
      expect(lines.some((l) => l.level === 'system' && /instance started/.test(l.message))).toBe(true);
      for (const l of lines) expect(new Date(l.at).toISOString()).toBe(l.at);
      const stored = JSON.stringify(await app.query(`SELECT * FROM function_logs`));
      for (const visitor of ['203.0.113.77', 'visitor%40example.com', 'visitor@example.com', 'token=abc', 'VisitorAgent', 'visitor-cookie']) {
        expect([visitor, stored.includes(visitor)]).toEqual([visitor, false]);
      }
      expect((await logs('?limit=1')).length).toBe(1);
      expect(await logs(`?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toEqual([]);
    });

    it('caps a flood: lines past 100 a second are dropped, and a line says how many', async () => {
      expect((await siteRequest(app.url, host, '/api/flood')).text).toBe('flooded');
      await until(async () => (await logs('?limit=1000')).some((l) => l.level === 'system' && l.message.includes('lines dropped')), 5000);
      const lines = await logs('?limit=1000');
      const flood = lines.filter((l) => l.message.startsWith('flood line'));
      expect(flood.length).toBeGreaterThan(0);
      expect(flood.length).toBeLessThanOrEqual(100);
      const dropped = lines.find((l) => l.message.includes('lines dropped'))!;
      expect(dropped.message).toMatch(/^\d+ lines dropped: more than 100 a second$/);
      expect(Number(dropped.message.split(' ')[0]) + flood.length).toBeGreaterThanOrEqual(500);
    });

    /** A GET of the site whose answer is handed over at its head (the caller reads or destroys it). */
    const opened = (path: string) =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const req = httpRequest({ hostname: '127.0.0.1', port, path, headers: { host }, agent: false }, resolve);
        req.on('error', reject);
        req.end();
      });
    const firstChunk = (res: IncomingMessage) => new Promise<string>((resolve) => res.once('data', (chunk: Buffer) => resolve(chunk.toString())));

    it("streams an answer as it is made, and ends the function's request when the visitor leaves mid-answer", async () => {
      const res = await opened('/api/stream');
      expect(res.statusCode).toBe(200);
      expect(await firstChunk(res)).toBe('first;');
      expect(res.complete).toBe(false);
      res.destroy(); // the visitor goes away
      await until(async () => (await logs()).some((l) => l.message === 'the visitor left the stream'), 10_000, "the function's request ended");
      // The platform carries on: the next request is answered.
      expect((await siteRequest(app.url, host, '/api/log')).text).toBe('logged');
    });

    it("cuts the visitor's connection when the instance ends mid-answer, rather than leaving it waiting", async () => {
      const res = await opened('/api/stream?end-instance=1');
      expect(await firstChunk(res)).toBe('first;');
      const ended = await new Promise<{ complete: boolean; body: string }>((resolve) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('close', () => resolve({ complete: res.complete, body }));
      });
      expect(ended).toEqual({ complete: false, body: '' });
      await until(async () => (await logs()).some((l) => l.level === 'system' && /exit code 3/.test(l.message)), 10_000, 'the instance’s end logged');
      expect((await siteRequest(app.url, host, '/api/log')).text).toBe('logged');
    });

    /** `GET …/logs?follow=true` as a raw stream (the caller destroys it). */
    const follow = (query = '') =>
      new Promise<IncomingMessage>((resolve, reject) => {
        const { hostname, port: apiPort } = new URL(app.url);
        const req = httpRequest(
          { hostname, port: apiPort, path: `/v1/deployments/${deploymentId}/logs?follow=true${query}`, headers: { authorization: `Bearer ${dev.apiKey}` } },
          resolve,
        );
        req.on('error', reject);
        req.end();
      });

    it('follows new lines as server-sent events', async () => {
      const received: string[] = [];
      const stream = await follow();
      try {
        expect(stream.statusCode).toBe(200);
        expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => received.push(chunk));
        await siteRequest(app.url, host, '/api/log?followed=1');
        await until(async () => received.join('').includes('GET /api/log 200'), 5000);
        const events = received
          .join('')
          .split('\n\n')
          .filter((e) => e.startsWith('data: '))
          .map((e) => JSON.parse(e.slice(6)));
        expect(events.map((e) => e.level)).toEqual(expect.arrayContaining(['info', 'warn', 'request']));
        expect(events.some((e) => e.message === 'a visit to /api/log')).toBe(true);
        expect(events.some((e) => e.message.startsWith('flood line'))).toBe(false); // from now on, without since
      } finally {
        stream.destroy();
      }
    });

    it('follows from a since no line is after yet: the new lines only, none of the older ones replayed', async () => {
      const received: string[] = [];
      const since = new Date();
      const stream = await follow(`&since=${encodeURIComponent(since.toISOString())}`);
      try {
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => received.push(chunk));
        await new Promise((resolve) => setTimeout(resolve, 1200)); // past a poll or two with nothing new
        // A line from before `since` written only now (a batch flushed late, another node's): not one to follow.
        await app.query(`INSERT INTO function_logs (deployment_id, at, level, message) VALUES ($1, $2, 'request', 'GET /api/log 200 1ms')`, [
          deploymentId,
          new Date(since.getTime() - 1000),
        ]);
        await siteRequest(app.url, host, '/api/log?since-test=1');
        await until(async () => received.join('').includes('GET /api/log 200'), 5000);
        await new Promise((resolve) => setTimeout(resolve, 700)); // another poll: nothing older arrives after it
        const messages = received
          .join('')
          .split('\n\n')
          .filter((e) => e.startsWith('data: '))
          .map((e) => (JSON.parse(e.slice(6)) as { message: string }).message);
        expect(messages.filter((m) => m.startsWith('GET /api/log 200'))).toHaveLength(1);
        expect(messages.some((m) => m.startsWith('flood line'))).toBe(false);
      } finally {
        stream.destroy();
      }
    });

    it('sends a keep-alive comment on an idle followed stream, every FUNCTIONS_LOGS_KEEPALIVE_MS', async () => {
      const stream = await follow();
      let received = '';
      const opened = Date.now();
      try {
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (received += chunk));
        await until(async () => (received.match(/^: keep-alive\n\n/gm) ?? []).length >= 3, 10_000);
        // Three 300 ms gaps at least: none came early.
        expect(Date.now() - opened).toBeGreaterThanOrEqual(900);
        expect(received.startsWith(': following\n\n')).toBe(true);
        expect(received).not.toContain('data: ');
      } finally {
        stream.destroy();
      }
    });

    it('reads and follows the logs, and sets variables, through the TypeScript SDK', async () => {
      const sdk = new PlatformClient({ baseUrl: app.url, apiKey: dev.apiKey });
      const set = await sdk.env.set(appId, 'sdk-env', 'FROM_SDK', 'shh', { secret: true });
      expect(set).toEqual({ name: 'FROM_SDK', secret: true, updatedAt: expect.any(String) });
      expect(await sdk.env.list(appId, 'sdk-env')).toEqual([{ name: 'FROM_SDK', secret: true, updatedAt: set.updatedAt }]);
      await sdk.env.remove(appId, 'sdk-env', 'FROM_SDK');
      expect(await sdk.env.list(appId, 'sdk-env')).toEqual([]);

      const lines = await sdk.deployments.logs(deploymentId, { limit: 1000 });
      expect(lines.some((l) => l.message === 'a visit to /api/log')).toBe(true);
      const stop = new AbortController();
      const followed: string[] = [];
      const following = (async () => {
        for await (const line of sdk.deployments.followLogs(deploymentId, { signal: stop.signal })) {
          followed.push(line.message);
          if (line.level === 'request') stop.abort();
        }
      })();
      await new Promise((resolve) => setTimeout(resolve, 300)); // the stream is open
      await siteRequest(app.url, host, '/api/log');
      await following;
      expect(followed).toEqual(expect.arrayContaining(['a visit to /api/log', 'careful']));
    });

    it("refuses a bad query, naming it, and another account's deployment", async () => {
      expect((await dev.get(`/v1/deployments/${deploymentId}/logs?limit=0`).expect(400)).body.message).toContain('limit must be an integer from 1 to 1000');
      expect((await dev.get(`/v1/deployments/${deploymentId}/logs?since=yesterday`).expect(400)).body.message).toContain('since must be an ISO 8601 time');
      const other = await newAccountClient(app);
      expect((await other.get(`/v1/deployments/${deploymentId}/logs`).expect(404)).body.reason).toBe('deployment_not_found');
    });
  });
});

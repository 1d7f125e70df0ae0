import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import request from 'supertest';
import { join } from 'node:path';
import { MIGRATIONS } from '../src/database/migrations/index.js';
import { startChildServer } from './support/child-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, startTestApp, target } from './support/test-app.js';
import { describeUnless, UNLESS_POSTGRES, UNLESS_REDIS } from './support/skips.js';
import { until } from './support/webhook-receiver.js';

const describeOnPostgres = describeUnless(UNLESS_POSTGRES);

describe(`lifecycle (${target})`, () => {
  // One restart (each in-process start costs ~2 s of CPU) for the data and, embedded, the secret key it generated.
  it('keeps its data across a restart; (embedded) generates the webhook secret key into DATA_DIR (mode 0600) on first start and keeps it', async () => {
    const first = await startTestApp({ keep: true });
    const file = join(first.dataDir, 'webhook-secret-key');
    let before = '';
    try {
      const { apiKey } = (
        await first.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'keep@example.com' }).expect(201)
      ).body;
      if (target === 'embedded') {
        await first.http().post('/v1/webhook-endpoints').set('authorization', `Bearer ${apiKey}`).send({ url: 'http://127.0.0.1:9/x' }).expect(201);
        expect(statSync(file).mode & 0o777).toBe(0o600);
        expect(readFileSync(file, 'utf8').trim().length).toBeGreaterThanOrEqual(32);
        const [row] = await first.query<{ secret: string }>(`SELECT secret FROM webhook_endpoints`);
        expect(row.secret).toMatch(/^enc:v1:/);
        before = readFileSync(file, 'utf8');
      }
    } finally {
      await first.close();
    }

    const second = await startTestApp({ reuse: { dataDir: first.dataDir, env: first.env } });
    try {
      if (target === 'embedded') expect(readFileSync(file, 'utf8')).toBe(before);
      const rows = await second.query<{ email: string }>('SELECT email FROM accounts');
      expect(rows.map((r) => r.email)).toEqual(['keep@example.com']);
      await second.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'keep@example.com' }).expect(409);
    } finally {
      await second.close();
    }
  });

  // One process for all of these (each `node dist/main.js` costs ~8 s of CPU, measured): its logs first, then what it
  // serves, then a webhook it refuses to deliver, then its stop.
  it('starts without warnings, says what it binds, logs one JSON line per request without the query string, (embedded) generates a private admin token file, refuses (without WEBHOOK_ALLOW_PRIVATE) to deliver to a private address and says so at warn level, naming the setting, and stops cleanly on SIGTERM', async () => {
    // A webhook endpoint at a private address, registered while the operator allowed private receivers (in this
    // process: only the child's logs are read)…
    const first = await startTestApp({ keep: true, env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '50' } });
    const env = { ...first.env };
    let auth: { authorization: string };
    let endpoint: { id: string };
    try {
      const key = (
        await first.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'blocked@example.com' }).expect(201)
      ).body.apiKey;
      auth = { authorization: `Bearer ${key}` };
      endpoint = (await first.http().post('/v1/webhook-endpoints').set(auth).send({ url: 'http://127.0.0.1:9/hook' }).expect(201)).body;
    } finally {
      await first.close();
    }
    // …and a process that no longer allows them (and, embedded, has no ADMIN_TOKEN: it makes its own).
    if (target === 'embedded') delete env.ADMIN_TOKEN;
    const server = await startChildServer({ ...env, HOST: '0.0.0.0', WEBHOOK_ALLOW_PRIVATE: 'false' });
    try {
      await fetch(`${server.url}/v1/apps?email=someone%40example.com&cursor=abc`, { headers: { authorization: 'Bearer sk_not_a_key' } });
      await fetch(`${server.url}/health/live`);
      // Logs are written asynchronously: wait for the request's line.
      await until(() => server.output().includes('"msg":"request completed"'), 10_000, 'the request logged');
      const lines = server.output().trim().split('\n');
      // Every line is JSON from the one logger; no warning at start (Nest's LegacyRouteConverter used to warn about /sites/*).
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      expect(lines.map((l) => JSON.parse(l)).filter((l) => l.level >= 40)).toEqual([]);
      const port = new URL(server.url).port;
      expect(server.output()).toContain(`Listening on 0.0.0.0:${port} (http://127.0.0.1:${port}) as API and worker`);
      expect(server.output()).toContain(`docs at http://127.0.0.1:${port}/docs`);
      // Which sandbox function instances run in is said at start (bubblewrap here: .ci/run installs it).
      expect(server.output()).toContain('Function instances run in a bubblewrap sandbox, under Deno’s permission flags');
      const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
      expect(requests).toEqual([
        expect.objectContaining({
          req: { method: 'GET', url: '/v1/apps' },
          res: { statusCode: 401 },
          requestId: expect.any(String),
          responseTime: expect.any(Number),
        }),
      ]);
      expect(server.output()).not.toContain('someone');
      expect(server.output()).not.toContain('sk_not_a_key');

      const ready = await fetch(`${server.url}/health/ready`);
      expect(ready.status).toBe(200);
      if (target === 'embedded') {
        const file = join(env.DATA_DIR, 'admin-token');
        expect(statSync(file).mode & 0o777).toBe(0o600);
        const token = readFileSync(file, 'utf8').trim();
        expect(server.output()).toContain(file);
        expect(server.output()).not.toContain(token);
        const created = await fetch(`${server.url}/v1/admin/accounts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'ops@example.com' }),
        });
        expect(created.status).toBe(201);
      }

      await request(server.url).post(`/v1/webhook-endpoints/${endpoint.id}/test`).set(auth).expect(202);
      await until(() => /"level":40[^\n]*private or reserved address/.test(server.output()), 15_000, 'the refused delivery logged');
      const line =
        server
          .output()
          .split('\n')
          .find((l) => l.includes('private or reserved address')) ?? '';
      expect(line).toMatch(/"level":40/);
      expect(line).toContain(endpoint.id);
      expect(line).toContain('WEBHOOK_ALLOW_PRIVATE=true');

      expect(await server.stop('SIGTERM')).toBe(0);
    } finally {
      await server.stop('SIGKILL');
      await dropFreshResources(env);
    }
  });

  it('prints nothing at LOG_LEVEL=silent', async () => {
    const env = await freshEnvironment();
    const port = await freePort();
    const child = spawn(process.execPath, [join(import.meta.dirname, '..', 'dist/main.js')], {
      env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), LOG_LEVEL: 'silent' },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    try {
      const end = Date.now() + 30_000;
      while (
        !(await fetch(`http://127.0.0.1:${port}/health/ready`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (Date.now() > end) throw new Error(`not ready: ${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      await fetch(`http://127.0.0.1:${port}/v1/apps`);
      await new Promise((r) => setTimeout(r, 200));
      expect(out).toBe('');
    } finally {
      child.kill('SIGKILL');
      await dropFreshResources(env);
    }
  });
});

const describeWorker = describeUnless(UNLESS_REDIS);
describeWorker('a worker process', () => {
  it('does not advertise docs it does not serve', async () => {
    const env = await freshEnvironment();
    const server = await startChildServer({ ...env, APP_ROLE: 'worker' });
    try {
      expect(server.output()).toMatch(/Listening on \S+ \(http:\/\/[^)]+\) as worker/);
      expect(server.output()).not.toContain('/docs');
      expect((await fetch(`${server.url}/docs`)).status).toBe(404);
    } finally {
      await server.stop('SIGKILL');
      await dropFreshResources(env);
    }
  });
});

describeOnPostgres('two instances starting at once on one PostgreSQL', () => {
  it('both come up and the migrations ran once', async () => {
    const env = await freshEnvironment({ migrated: false });
    const servers = await Promise.all([startChildServer(env), startChildServer(env)]);
    try {
      for (const server of servers) expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
      const pg = (await import('pg')).default;
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      const { rows } = await client.query('SELECT name FROM migrations ORDER BY id');
      await client.end();
      expect(rows.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      const applied = servers.map((s) => /Applied \d+ migration/.test(s.output()));
      expect(applied.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await dropFreshResources(env);
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

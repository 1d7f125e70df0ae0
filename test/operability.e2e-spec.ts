import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { type ChildServer, runDistScript, startChildServer } from './support/child-server.js';
import { TEST_MODEL_PATH } from './support/models.js';
import { describeUnless, UNLESS_EMBEDDED } from './support/skips.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, target } from './support/fresh-database.js';

const ROOT = join(import.meta.dirname, '..');
const SOCKET = '.s.PGSQL.5432';
const LOCK = 'server.pid';

/** Real processes (`node dist/main.js`): how the service starts, fails to start and stops. */
describe(`operability (${target})`, () => {
  let env: Record<string, string>;
  beforeEach(async () => {
    env = await freshEnvironment();
  });
  afterEach(() => dropFreshResources(env));

  it('a bad value: one line on stderr naming the variable and what it accepts, exit 1', async () => {
    // (Several bad values make one line too: see app-config.spec.ts.)
    const result = await runDistScript('main.js', { ...env, PORT: 'abc' });
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: 'Invalid configuration: PORT must be a whole number from 0 to 65535\n' });
  });

  it('sites that could run on the API’s origin or drop cookies on its host: one line naming SITES_DOMAIN and PUBLIC_URL, exit 1', async () => {
    // issue 45, C1: this pair started, and an app whose slug is `api` served its scripts on the portal's origin.
    const under = await runDistScript('main.js', { ...env, PUBLIC_URL: 'http://api.example.test', SITES_DOMAIN: 'example.test' });
    expect(under).toMatchObject({ code: 1, stdout: '' });
    expect(under.stderr).toBe(
      "Invalid configuration: SITES_DOMAIN (example.test) and PUBLIC_URL's host (api.example.test): the API's host is a name under SITES_DOMAIN, so an app could be served on the API's origin; put the sites under a domain of their own (like example-apps.com)\n",
    );
    const shared = await runDistScript('main.js', { ...env, PUBLIC_URL: 'http://example.test', SITES_DOMAIN: 'apps.example.test' });
    expect(shared).toMatchObject({ code: 1, stdout: '' });
    expect(shared.stderr).toMatch(
      /^Invalid configuration: SITES_DOMAIN \(apps\.example\.test\) and PUBLIC_URL's host \(example\.test\) share the registrable domain example\.test: .*\n$/,
    );
    expect(shared.stderr.split('\n')).toHaveLength(2);
  });

  it('a port in use: one line naming the port and PORT, exit 1, nothing left in DATA_DIR', async () => {
    const taken = await listenOnFreePort();
    const port = (taken.address() as { port: number }).port;
    try {
      const result = await runDistScript('main.js', { ...env, PORT: String(port), LOG_LEVEL: 'info' });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`Port ${port} is in use: stop the other process or set PORT to another port\n`);
      // The logs (stdout) carry no error line or stack of their own about it.
      expect(result.stdout).not.toMatch(/EADDRINUSE|"level":50/);
      expect(existsSync(join(env.DATA_DIR, LOCK))).toBe(false);
      expect(existsSync(join(env.DATA_DIR, SOCKET))).toBe(false);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('SIGTERM after a local AI generation ends in a clean shutdown: exit 0, no socket or lock left', async () => {
    const server = await startChildServer({ ...env, AI_PROVIDER: 'local', AI_MODEL_PATH: TEST_MODEL_PATH, AI_THREADS: '1' });
    try {
      const apiKey = await createAccount(server.url);
      const generated = await fetch(`${server.url}/v1/ai/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'Once upon a time', maxTokens: 4 }),
      });
      expect(generated.status).toBe(200);
      expect(((await generated.json()) as { usage: { completionTokens: number } }).usage.completionTokens).toBe(4);
      await expectCleanStop(server, 'SIGTERM', env.DATA_DIR);
    } finally {
      await server.stop('SIGKILL');
    }
  });

  it('SIGINT during the start ends in a clean shutdown once started: exit 0', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? -1)));
    // The first log line comes from Nest's start, before the server listens.
    await new Promise((resolve) => child.stdout.once('data', resolve));
    child.kill('SIGINT');
    child.stdout.resume();
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(existsSync(join(env.DATA_DIR, SOCKET))).toBe(false);
  });
});

describeUnless(UNLESS_EMBEDDED)(`operability of the embedded database in DATA_DIR (embedded only)`, () => {
  let env: Record<string, string>;
  beforeEach(async () => {
    env = await freshEnvironment();
  });
  afterEach(() => dropFreshResources(env));

  it('a second process on the same DATA_DIR is refused naming the holder; after a SIGKILL the next start cleans up and keeps the data', async () => {
    const first = await startChildServer(env);
    let apiKey: string;
    try {
      expect(readFileSync(join(env.DATA_DIR, LOCK), 'utf8').trim()).toBe(String(first.process.pid));
      const second = await runDistScript('main.js', env);
      expect(second.code).toBe(1);
      expect(second.stderr).toBe(`DATA_DIR ${env.DATA_DIR} is in use by process ${first.process.pid}: stop it, or set DATA_DIR to another folder\n`);
      // Refused before it opened the database: the first one's lock is untouched and it keeps serving.
      expect(readFileSync(join(env.DATA_DIR, LOCK), 'utf8').trim()).toBe(String(first.process.pid));
      apiKey = await createAccount(first.url);
    } finally {
      expect(await first.stop('SIGKILL')).toBe('SIGKILL');
    }
    // What the killed process left behind…
    expect(existsSync(join(env.DATA_DIR, SOCKET))).toBe(true);
    expect(readFileSync(join(env.DATA_DIR, LOCK), 'utf8').trim()).toBe(String(first.process.pid));

    // …is cleaned up by the next start, which has the data.
    const next = await startChildServer(env);
    try {
      expect(readFileSync(join(env.DATA_DIR, LOCK), 'utf8').trim()).toBe(String(next.process.pid));
      const keys = await fetch(`${next.url}/v1/api-keys`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(keys.status).toBe(200);
      await expectCleanStop(next, 'SIGINT', env.DATA_DIR);
    } finally {
      await next.stop('SIGKILL');
    }
  });
});

/** The signal ends the server cleanly: exit 0, nothing on stderr, no socket or lock left in DATA_DIR. */
async function expectCleanStop(server: ChildServer, signal: NodeJS.Signals, dataDir: string): Promise<void> {
  expect(await server.stop(signal)).toBe(0);
  expect(server.stderr()).toBe('');
  expect(existsSync(join(dataDir, SOCKET))).toBe(false);
  expect(existsSync(join(dataDir, LOCK))).toBe(false);
}

async function createAccount(url: string): Promise<string> {
  const res = await fetch(`${url}/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `ops-${Date.now()}@example.com` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { apiKey: string }).apiKey;
}

function listenOnFreePort(): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
  });
}

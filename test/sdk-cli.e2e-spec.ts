import { execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startFaultProxy } from './support/fault-proxy.js';
import { siteRequest } from './support/site-http.js';
import { until } from './support/webhook-receiver.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const ROOT = join(import.meta.dirname, '..');
const SDK_DIR = join(ROOT, 'libs/sdk');
const SPA = join(ROOT, 'test/fixtures/spa');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The SDK's command line as a user runs it: built like the published package (its `bin`), run as a child
 * process against a real server, with the key and server from the environment. Uploads are counted on the
 * server's side (its request metrics), not by the CLI's own account.
 */
describe(`the SDK's deploy command (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let cli: string;
  let out: string;
  let site: string;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'sdk-cli-'));
    copyFileSync(join(SDK_DIR, 'package.json'), join(out, 'package.json'));
    execFileSync(process.execPath, [join(SDK_DIR, 'scripts/build.mjs'), out], { stdio: 'pipe' });
    const pkg = JSON.parse(
      execFileSync(process.execPath, ['-p', `JSON.stringify(require(${JSON.stringify(join(out, 'package.json'))}))`], { encoding: 'utf8' }),
    );
    cli = join(out, pkg.bin['platform-sdk']);
    site = mkdtempSync(join(tmpdir(), 'spa-'));
    cpSync(SPA, site, { recursive: true });
    app = await startTestApp({ env: NO_RATE_LIMIT });
    dev = await newAccountClient(app);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(site, { recursive: true, force: true });
  });

  /** Asynchronous: the server answering it runs in this very process. `input`: its standard input. */
  const run = (args: string[], env: Record<string, string | undefined> = {}, input?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        [cli, ...args],
        { env: { PATH: process.env.PATH, PLATFORM_API_KEY: dev.apiKey, PLATFORM_BASE_URL: app.url, ...env }, encoding: 'utf8' },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      child.stdin?.end(input);
    });

  /** PUT /v1/files/:sha256 requests the server has answered, by its own metrics. */
  const uploadsSoFar = async () => {
    const metrics = (await app.http().get('/metrics').expect(200)).text;
    return metrics
      .split('\n')
      .filter((line) => line.startsWith('http_requests_total{') && line.includes('method="PUT"') && line.includes('route="/v1/files/:sha256"'))
      .reduce((n, line) => n + Number(line.split(' ').pop()), 0);
  };
  const fileCount = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? fileCount(join(dir, e.name)) : 1), 0);
  const folderBytes = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce((n, e) => n + (e.isDirectory() ? folderBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size), 0);

  it('uploads every file once on the first deploy, exactly the changed one on the next, none when nothing changed', async () => {
    const appId = ((await dev.post('/v1/apps', { name: 'Pocket Notes' }).expect(201)).body as { appId: string }).appId;
    const files = fileCount(site);
    expect(files).toBeGreaterThanOrEqual(6);

    const before = await uploadsSoFar();
    const first = await run(['deploy', site, '--app', appId, '--env', 'production', '--spa', '--json']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    const result = JSON.parse(first.stdout);
    expect(first.stdout.trim().split('\n')).toHaveLength(1); // one JSON object, nothing else
    const label = result.deploymentId.toLowerCase().replace('_', '-');
    expect(result).toEqual({
      deploymentId: expect.stringMatching(/^dep_/),
      url: `http://${label}.localhost:${new URL(app.url).port}/`,
      appId,
      env: 'production',
      createdAt: expect.any(String),
      files,
      bytes: folderBytes(site),
      uploaded: { files, bytes: folderBytes(site) },
    });
    expect(await uploadsSoFar()).toBe(before + files);
    const deployment = (await dev.get(`/v1/deployments/${result.deploymentId}`).expect(200)).body;
    expect(deployment).toMatchObject({ files: { count: files, bytes: folderBytes(site) }, config: { spa: true } });
    const [row] = await app.query<{ files: Record<string, string> }>('SELECT files FROM deployments WHERE id = $1', [result.deploymentId]);
    expect(Object.keys(row.files).sort()).toEqual(
      [
        '/404.html',
        '/about.html',
        '/assets/app.3f9a1c2b.js',
        '/assets/app.9d1e7c55.css',
        '/favicon.svg',
        '/images/logo.png',
        '/index.html',
        '/site.webmanifest',
        '/sw.js',
      ].sort(),
    );

    // One file changed: exactly one upload, and the progress lines a person reads.
    const changed = ':root { --accent: #c2410c; }\n';
    writeFileSync(join(site, 'assets/app.9d1e7c55.css'), changed);
    const second = await run(['deploy', site, '--app', appId, '--env', 'production', '--spa']);
    expect(second.code).toBe(0);
    expect(await uploadsSoFar()).toBe(before + files + 1);
    const lines = second.stdout.trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Hashed ${files} files \\(\\d+(\\.\\d)? (B|KiB)\\)$`));
    expect(lines).toContain(`Uploaded 1/1 files (${changed.length} B of ${changed.length} B)`);
    expect(lines.at(-1)).toMatch(new RegExp(`^http://dep-[0-9a-z]{26}\\.localhost:${new URL(app.url).port}/$`));

    const third = await run(['deploy', site, '--app', appId, '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ env: 'production', files, uploaded: { files: 0, bytes: 0 } });
    expect(await uploadsSoFar()).toBe(before + files + 1);
  }, 60_000);

  it('waits out a 429 on an upload for its Retry-After, then uploads it and deploys', async () => {
    const appId = ((await dev.post('/v1/apps', { name: 'Patient Notes' }).expect(201)).body as { appId: string }).appId;
    const dir = mkdtempSync(join(tmpdir(), 'spa-429-'));
    const proxy = await startFaultProxy(app.url);
    try {
      writeFileSync(join(dir, 'index.html'), `<!doctype html><h1>${appId}</h1>`);
      proxy.plan = ['ok', '429']; // the deploy (files_missing) goes through; the upload is answered 429, Retry-After: 1
      const res = await run(['deploy', dir, '--app', appId, '--json'], { PLATFORM_BASE_URL: proxy.url });
      expect(res).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(res.stdout)).toMatchObject({ appId, files: 1, uploaded: { files: 1 } });
      const puts = proxy.seen.filter((r) => r.method === 'PUT');
      expect(puts).toHaveLength(2);
      expect(puts[1].at - puts[0].at).toBeGreaterThanOrEqual(950);
    } finally {
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('publishes with --publish', async () => {
    const appId = ((await dev.post('/v1/apps', { name: 'Published Notes' }).expect(201)).body as { appId: string }).appId;
    const res = await run(['deploy', site, '--app', appId, '--publish', '--json']);
    expect(res.code).toBe(0);
    const result = JSON.parse(res.stdout);
    expect(result.publicUrl).toMatch(/\/p\/published-notes\/$/);
    expect((await dev.get(`/v1/apps/${appId}`).expect(200)).body).toMatchObject({ publishState: 'published', publishedDeploymentId: result.deploymentId });
  }, 60_000);

  it('says what is wrong: a bad app (exit 1, the error as JSON), no key or no --app (exit 2, the usage)', async () => {
    const bad = await run(['deploy', site, '--app', 'app_00000000000000000000000000', '--json']);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toEqual({ error: { status: 400, reason: 'app_id_not_yours', message: expect.stringContaining('is not one of your apps') } });

    const noKey = await run(['deploy', site, '--app', 'app_x'], { PLATFORM_API_KEY: undefined });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('PLATFORM_API_KEY');
    const noApp = await run(['deploy', site]);
    expect(noApp.code).toBe(2);
    expect(noApp.stderr).toContain('--app <appId> is required');
    expect((await run(['--help'])).stdout).toContain('Usage: platform-sdk deploy <dir>');
  }, 60_000);

  describe('server code: deploy --functions, env, logs', () => {
    let appId: string;
    let server: string;
    const port = () => new URL(app.url).port;
    const hostOf = (deploymentId: string) => `${deploymentId.toLowerCase().replace('_', '-')}.localhost:${port()}`;

    beforeAll(async () => {
      appId = ((await dev.post('/v1/apps', { name: 'Server Notes' }).expect(201)).body as { appId: string }).appId;
      server = mkdtempSync(join(tmpdir(), 'server-'));
      mkdirSync(join(server, 'lib'));
      writeFileSync(
        join(server, 'index.ts'),
        `import { shout } from './lib/shout.ts';
export default {
  fetch(request: Request, env: Record<string, string>): Response {
    const path = new URL(request.url).pathname;
    console.log('served', path);
    return Response.json({ path, greeting: shout(env.GREETING ?? 'none'), secretLength: (env.API_SECRET ?? '').length, names: Object.keys(env).sort() });
  },
};
`,
      );
      writeFileSync(join(server, 'lib/shout.ts'), 'export const shout = (s: string): string => s.toUpperCase();\n');
      writeFileSync(join(server, 'hooks.js'), 'export default { fetch: () => new Response("hook") };\n');
    });
    afterAll(() => rmSync(server, { recursive: true, force: true }));

    it('sets, lists and removes variables; a secret (read from stdin) is never printed again', async () => {
      const set = await run(['env', 'set', 'GREETING', 'hello', '--app', appId]);
      expect(set).toEqual({ code: 0, stdout: 'Set GREETING in production: it applies from the next deploy.\n', stderr: '' });
      const secret = await run(['env', 'set', 'API_SECRET', '-', '--secret', '--app', appId, '--json'], {}, 'sk_live_from_stdin\n');
      expect(secret.code).toBe(0);
      expect(JSON.parse(secret.stdout)).toEqual({ name: 'API_SECRET', secret: true, updatedAt: expect.any(String) });
      await run(['env', 'set', 'STAGING_ONLY', 'x', '--app', appId, '--env', 'staging']);

      const ls = await run(['env', 'ls', '--app', appId]);
      expect(ls).toEqual({ code: 0, stdout: 'API_SECRET=(secret)\nGREETING=hello\n', stderr: '' });
      const stored = await app.query<{ value: string }>(`SELECT value FROM env_vars WHERE app_id = $1 AND name = 'API_SECRET'`, [appId]);
      expect(stored[0].value).not.toContain('sk_live_from_stdin'); // sealed at rest
      expect(JSON.parse((await run(['env', 'ls', '--app', appId, '--env', 'staging', '--json'])).stdout)).toEqual([
        { name: 'STAGING_ONLY', secret: false, value: 'x', updatedAt: expect.any(String) },
      ]);
      expect(await run(['env', 'rm', 'STAGING_ONLY', '--app', appId, '--env', 'staging'])).toEqual({
        code: 0,
        stdout: 'Removed STAGING_ONLY from staging: it applies from the next deploy.\n',
        stderr: '',
      });
      expect((await run(['env', 'ls', '--app', appId, '--env', 'staging'])).stdout).toBe('No variables in staging.\n');

      // Refusals: the server's message and reason (exit 1); a wrong command line: the usage (exit 2).
      const bad = await run(['env', 'set', 'PLATFORM_TOKEN', 'x', '--app', appId]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^env set failed: .*PLATFORM_/);
      const gone = await run(['env', 'rm', 'NOT_THERE', '--app', appId, '--json']);
      expect(gone.code).toBe(1);
      expect(JSON.parse(gone.stdout).error).toMatchObject({ status: 404 });
      const other = await newAccountClient(app);
      expect((await run(['env', 'ls', '--app', appId], { PLATFORM_API_KEY: other.apiKey })).code).toBe(1);
      for (const args of [
        ['env', 'set', 'ONLY_NAME', '--app', appId],
        ['env', 'ls'],
        ['env', 'frob', '--app', appId],
        ['env', 'ls', '--app', appId, '--secret'],
      ]) {
        const wrong = await run(args);
        expect([args.join(' '), wrong.code]).toEqual([args.join(' '), 2]);
        expect(wrong.stderr).toContain('Usage: platform-sdk env set <NAME> <value>');
      }
    }, 60_000);

    it('deploys a folder of server code under /_server/ with its entry and routes; it runs with the variables and is never served', async () => {
      const res = await run(['deploy', site, '--app', appId, '--functions', server, '--json']);
      expect(res).toMatchObject({ code: 0, stderr: '' });
      const result = JSON.parse(res.stdout);
      expect(result.functions).toEqual({ entry: '/_server/index.ts', routes: ['/api/*'] });
      expect(result.files).toBe(fileCount(site) + 3);
      const [row] = await app.query<{ files: Record<string, string> }>('SELECT files FROM deployments WHERE id = $1', [result.deploymentId]);
      expect(
        Object.keys(row.files)
          .filter((p) => p.startsWith('/_server/'))
          .sort(),
      ).toEqual(['/_server/hooks.js', '/_server/index.ts', '/_server/lib/shout.ts']);
      expect((await dev.get(`/v1/deployments/${result.deploymentId}`).expect(200)).body.variables.sort()).toEqual(['API_SECRET', 'GREETING']);

      const host = hostOf(result.deploymentId);
      const answer = await siteRequest(app.url, host, '/api/notes');
      expect(answer.status).toBe(200);
      const body = JSON.parse(answer.text) as { names: string[] };
      expect(body).toMatchObject({ path: '/api/notes', greeting: 'HELLO', secretLength: 'sk_live_from_stdin'.length });
      expect(body.names).toContain('PLATFORM_URL');
      expect(body.names.filter((n) => !n.startsWith('PLATFORM_'))).toEqual(['API_SECRET', 'GREETING']); // not STAGING_ONLY
      expect((await siteRequest(app.url, host, '/_server/index.ts')).status).toBe(404);
      expect((await siteRequest(app.url, host, '/about.html')).status).toBe(200); // the files as before

      // Another entry and routes; the other paths are files again.
      const custom = await run([
        'deploy',
        site,
        '--app',
        appId,
        '--functions',
        server,
        '--entry',
        './hooks.js',
        '--routes',
        '/hooks/*,/webhook',
        '--routes',
        '/ping',
        '--json',
      ]);
      expect(custom.code).toBe(0);
      const second = JSON.parse(custom.stdout);
      expect(second.functions).toEqual({ entry: '/_server/hooks.js', routes: ['/hooks/*', '/webhook', '/ping'] });
      expect((await siteRequest(app.url, hostOf(second.deploymentId), '/hooks/stripe')).text).toBe('hook');
      expect((await siteRequest(app.url, hostOf(second.deploymentId), '/api/notes')).status).toBe(404);
    }, 90_000);

    it('refuses what cannot deploy before uploading anything, and what the server refuses with its reason', async () => {
      const before = await uploadsSoFar();
      const missing = await run(['deploy', site, '--app', appId, '--functions', server, '--entry', 'main.ts']);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toBe(`Deploy failed: the entry main.ts is not a file of ${server}\n`);
      const noIndex = mkdtempSync(join(tmpdir(), 'server-noindex-'));
      const clash = mkdtempSync(join(tmpdir(), 'site-clash-'));
      try {
        writeFileSync(join(noIndex, 'main.js'), 'export default { fetch: () => new Response("x") };');
        expect((await run(['deploy', site, '--app', appId, '--functions', noIndex])).stderr).toContain(
          'has no index.js or index.ts: name its entry file (--entry)',
        );
        mkdirSync(join(clash, '_server'));
        writeFileSync(join(clash, '_server/index.js'), 'export default {};');
        expect((await run(['deploy', clash, '--app', appId, '--functions', server])).stderr).toContain('holds a /_server/ folder of its own');
        expect(await uploadsSoFar()).toBe(before);

        writeFileSync(join(noIndex, 'index.js'), 'export default { fetch(request) { return new Response("x") ');
        const invalid = await run(['deploy', site, '--app', appId, '--functions', noIndex, '--json']);
        expect(invalid.code).toBe(1);
        expect(JSON.parse(invalid.stdout).error).toMatchObject({
          status: 400,
          reason: 'function_invalid',
          message: expect.stringContaining('/_server/index.js did not load'),
        });
        const route = await run(['deploy', site, '--app', appId, '--functions', server, '--routes', '/signup']);
        expect(route.code).toBe(1);
        expect(route.stderr).toContain('config.functions.routes[0] covers /signup');
      } finally {
        rmSync(noIndex, { recursive: true, force: true });
        rmSync(clash, { recursive: true, force: true });
      }
      const loose = await run(['deploy', site, '--app', appId, '--entry', 'index.ts']);
      expect(loose.code).toBe(2);
      expect(loose.stderr).toContain('--entry and --routes go with --functions <dir>');
    }, 90_000);

    it('prints the logs, and follows them until Ctrl-C', async () => {
      const deployed = JSON.parse((await run(['deploy', site, '--app', appId, '--functions', server, '--json'])).stdout);
      const host = hostOf(deployed.deploymentId);
      await siteRequest(app.url, host, '/api/first?token=secret');
      await until(async () => (await run(['logs', deployed.deploymentId])).stdout.includes('GET /api/first 200'), 10_000);
      const printed = (await run(['logs', deployed.deploymentId])).stdout.trim().split('\n');
      expect(printed).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT\S+Z info {4}served \/api\/first$/));
      expect(printed).toContainEqual(expect.stringMatching(/^\S+Z request GET \/api\/first 200 \d+ms$/));
      expect(printed.join('\n')).not.toContain('token=secret');
      expect(
        (await run(['logs', deployed.deploymentId, '--limit', '1', '--json'])).stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)),
      ).toEqual([{ at: expect.any(String), level: expect.any(String), message: expect.any(String) }]);

      // Following a fresh deployment from now (--since: lines written before the stream is open still come), printed as
      // they are written; Ctrl-C ends it with 0.
      const fresh = JSON.parse((await run(['deploy', site, '--app', appId, '--functions', server, '--json'])).stdout);
      const child = spawn(process.execPath, [cli, 'logs', fresh.deploymentId, '--follow', '--since', new Date().toISOString()], {
        env: { PATH: process.env.PATH, PLATFORM_API_KEY: dev.apiKey, PLATFORM_BASE_URL: app.url },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      try {
        await until(async () => stderr.includes('Following the logs of'), 10_000);
        await siteRequest(app.url, hostOf(fresh.deploymentId), '/api/second');
        await until(async () => stdout.includes('GET /api/second 200'), 10_000);
        expect(stdout).toMatch(/ info {4}served \/api\/second\n/);
        expect(stdout).not.toContain('/api/first'); // another deployment's
        child.kill('SIGINT');
        expect(await exited).toBe(0);
        expect(stderr).toBe(`Following the logs of ${fresh.deploymentId} (Ctrl-C to stop)\n`);
      } finally {
        child.kill('SIGKILL');
      }

      const unknown = await run(['logs', 'dep_00000000000000000000000000', '--follow']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('(deployment_not_found)');
      expect((await run(['logs', deployed.deploymentId, '--limit', '0'])).code).toBe(2);
    }, 90_000);
  });
});

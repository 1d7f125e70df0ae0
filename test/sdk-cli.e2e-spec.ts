import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startFaultProxy } from './support/fault-proxy.js';
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

  /** Asynchronous: the server answering it runs in this very process. */
  const run = (args: string[], env: Record<string, string | undefined> = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [cli, ...args],
        { env: { PATH: process.env.PATH, PLATFORM_API_KEY: dev.apiKey, PLATFORM_BASE_URL: app.url, ...env }, encoding: 'utf8' },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
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
});

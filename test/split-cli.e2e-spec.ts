import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { ApiClient, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const SDK_DIR = join(import.meta.dirname, '..', 'libs/sdk');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `platform-sdk split start|status|end` as a user runs it: the SDK built like the published package, its `bin` run
 * as a child process against a real server, the key and server from the environment.
 */
describe(`the SDK's split command (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  let cli: string;
  let out: string;
  let appId: string;
  const deployments: string[] = [];

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'split-cli-'));
    copyFileSync(join(SDK_DIR, 'package.json'), join(out, 'package.json'));
    execFileSync(process.execPath, [join(SDK_DIR, 'scripts/build.mjs'), out], { stdio: 'pipe' });
    cli = join(out, 'dist/esm/libs/sdk/src/cli.js');
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
    dev = await newAccountClient(app);
    appId = (await dev.post('/v1/apps', { name: 'Split from the shell', slug: 'split-cli' }).expect(201)).body.appId;
    for (let i = 0; i < 2; i++) deployments.push((await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body.deploymentId);
    await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: deployments[0] }).expect(200);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  /** Asynchronous: the server answering it runs in this very process. */
  const run = (args: string[], apiKey = dev.apiKey): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [cli, 'split', ...args],
        { env: { PATH: process.env.PATH, PLATFORM_API_KEY: apiKey, PLATFORM_BASE_URL: app.url }, encoding: 'utf8' },
        (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it('refuses a wrong command line with exit code 2 and the usage, before calling the server', async () => {
    for (const [args, problem] of [
      [['frob', '--app', 'app_x'], 'Unknown split command frob'],
      [['status'], '--app <appId> is required'],
      [['start', '--app', 'app_x'], 'Expected the variants: <deploymentId>=<weight>'],
      [['start', '--app', 'app_x', 'dep_a=50', 'dep_b'], 'A variant is <deploymentId>=<weight> (a whole percent), not "dep_b"'],
      [['start', '--app', 'app_x', 'dep_a=50', 'dep_b=half'], 'not "dep_b=half"'],
      [['end', '--app', 'app_x', 'now'], 'split end takes no arguments (got now)'],
      [['status', '--app', 'app_x', '--verbose'], "Unknown option '--verbose'"],
    ] as Array<[string[], string]>) {
      const res = await run(args);
      expect([res.code, res.stdout]).toEqual([2, '']);
      expect(res.stderr).toContain(problem);
      expect(res.stderr).toContain('Usage: platform-sdk split start --app <appId>');
    }
    const help = await run(['--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain('platform-sdk split status --app <appId> [--json]');
  });

  it('starts a test, prints its results as a table, and ends it', async () => {
    const refused = await run(['start', '--app', appId, `${deployments[0]}=60`, `${deployments[1]}=30`]);
    expect(refused).toEqual({ code: 1, stdout: '', stderr: 'Split start failed: variants weights must sum to 100 (they sum to 90) (invalid_parameter)\n' });

    const started = await run(['start', '--app', appId, `${deployments[0]}=60`, `${deployments[1]}=40`]);
    expect([started.code, started.stderr]).toEqual([0, '']);
    const split = (await dev.get(`/v1/apps/${appId}/split`).expect(200)).body;
    expect(started.stdout).toBe(`Started split test ${split.id}: ${deployments[0]} 60 %, ${deployments[1]} 40 %\n`);

    // Visitors of the public address: each counted for the variant they were served.
    for (let i = 0; i < 24; i++) {
      await app
        .http()
        .get('/p/split-cli/')
        .set({ 'x-forwarded-for': `198.18.9.${i}`, 'user-agent': `Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.${i}` })
        .expect(200);
    }
    await app.server.app.get(AnalyticsBuffer).flush();
    const results = (await dev.get(`/v1/apps/${appId}/split`).expect(200)).body;
    expect(results.variants[0].visitors + results.variants[1].visitors).toBe(24);

    const status = await run(['status', '--app', appId]);
    expect([status.code, status.stderr]).toEqual([0, '']);
    const lines = status.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Split test ${split.id}, running since ${split.startedAt}`);
    expect(lines[1].split(/\s{2,}/)).toEqual(['DEPLOYMENT', 'WEIGHT', 'VISITORS', 'SIGN-UPS', 'CONVERSION', 'CHANCE TO BEAT FIRST']);
    // No sign-ups yet: the chance cannot be computed, "—" on both rows.
    expect(lines.slice(2).map((l) => l.split(/\s{2,}/))).toEqual([
      [`${deployments[0]} (first)`, '60 %', String(results.variants[0].visitors), '0', '0.0 %', '—'],
      [deployments[1], '40 %', String(results.variants[1].visitors), '0', '0.0 %', '—'],
    ]);
    const json = await run(['status', '--app', appId, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(results);

    // A key that may only read cannot end it: the server's refusal, exit code 1.
    const reader = await scopedClient(app, dev, ['apps:read']);
    const forbidden = await run(['end', '--app', appId, '--json'], reader.apiKey);
    expect(forbidden.code).toBe(1);
    expect(JSON.parse(forbidden.stdout).error).toMatchObject({ status: 403 });
    await dev.get(`/v1/apps/${appId}/split`).expect(200);

    const ended = await run(['end', '--app', appId]);
    expect(ended).toEqual({ code: 0, stdout: 'Split test ended: the published deployment serves everyone\n', stderr: '' });
    expect((await dev.get(`/v1/apps/${appId}/split`).expect(404)).body.reason).toBe('split_not_found');
    const none = await run(['status', '--app', appId]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^Split status failed: .* \(split_not_found\)\n$/);
  });
});

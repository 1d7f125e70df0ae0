import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { dirname, join } from 'node:path';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';

const ROOT = join(import.meta.dirname, '..');
const TOUR = 'docs/tour.sh';
const PASSWORD = 'a long enough portal password';

/** Runs the tour as a reader would, in a shell of its own (asynchronously: the server under test runs in this process). */
function runTour(env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const child = spawn('bash', [TOUR], {
    cwd: ROOT,
    env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: process.env.HOME ?? '/tmp', ...env },
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, output })));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** Files git would see as new or changed: the tour must leave none. */
const worktreeChanges = () => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: ROOT, encoding: 'utf8' });

function match(output: string, pattern: RegExp): RegExpExecArray {
  const found = pattern.exec(output);
  if (!found) throw new Error(`the tour did not print ${pattern}:\n${output}`);
  return found;
}

describe(`the five-minute tour, ${TOUR} (${target})`, () => {
  let app: TestApp;
  let output: string;
  let status: number | null;
  let receiverPort: number;
  let changesBefore: string;

  beforeAll(async () => {
    // The test server, like the tour asks of its reader, allows webhooks to local receivers (WEBHOOK_ALLOW_PRIVATE=true).
    app = await startTestApp();
    expect(app.env.WEBHOOK_ALLOW_PRIVATE).toBe('true');
    receiverPort = await freePort();
    changesBefore = worktreeChanges();
    ({ status, output } = await runTour({ PLATFORM_URL: app.url, ADMIN_TOKEN, RECEIVER_PORT: String(receiverPort) }));
  }, 120_000);
  afterAll(() => app.close());

  it('runs to the end', () => {
    if (status !== 0) console.error(output);
    expect(status).toBe(0);
  });

  it('creates an account, an app with its edited landing page, and a deployment it publishes', async () => {
    const [, accountId] = match(output, /^account (acc_\w+), API key sk_\w+$/m);
    const [, appId] = match(output, /^app (app_\w+)$/m);
    match(output, /^manual Family recipes, finally in one place$/m);
    const [, deploymentId, deploymentUrl] = match(output, /^deployment (dep_\w+) at (\S+)$/m);
    const [, publicUrl] = match(output, /^published at (\S+)$/m);
    expect(deploymentUrl).toBe(`${app.url}/sites/${deploymentId}/`);
    expect(publicUrl).toMatch(new RegExp(`^${app.url}/p/recipe-box(-\\d+)?/$`));
    const [row] = await app.query<{ account_id: string; name: string; publish_state: string }>(
      'SELECT account_id, name, publish_state FROM apps WHERE id = $1',
      [appId],
    );
    expect(row).toEqual({ account_id: accountId, name: 'Recipe Box', publish_state: 'unpublished' });
  });

  it("signs a visitor up through the page's form: a 303 to the thanks page, a new user with a new e-mail", async () => {
    const [, publicUrl] = match(output, /^published at (\S+)$/m);
    match(output, /^page: Family recipes, finally in one place$/m);
    expect(output).toContain(`sign-up: 303 to ${publicUrl}thanks\n`);
    const [, userId, email] = match(output, /^user (usr_\w+) (reader-\d+@example\.com)$/m);
    const [, appId] = match(output, /^app (app_\w+)$/m);
    expect(await app.query('SELECT id, app_id FROM users WHERE email = $1', [email])).toEqual([{ id: userId, app_id: appId }]);
  });

  it('shows the visitor and the sign-up in analytics', () => {
    const [, visitors, pageviews, signups] = match(output, /^today: visitors (\d+), pageviews (\d+), signups (\d+), conversion rate [\d.]+ %$/m).map(Number);
    expect(visitors).toBeGreaterThanOrEqual(1);
    expect(pageviews).toBeGreaterThanOrEqual(1);
    expect(signups).toBeGreaterThanOrEqual(1);
  });

  it('delivers signed webhooks that the receiver verifies: the sign-up, then the unpublishing', async () => {
    const [, eventId, data] = match(output, /^webhook received: user\.created (evt_\w+) \(signature verified, attempt 1\) (\{.*\})$/m);
    const [, userId, email] = match(output, /^user (usr_\w+) (\S+)$/m);
    expect(JSON.parse(data)).toMatchObject({ id: userId, email, source: 'landing-page' });
    match(output, /^webhook received: app\.unpublished evt_\w+ \(signature verified, attempt 1\)/m);
    expect(output).not.toMatch(/webhook rejected/);
    const attempts = await app.query<{ status_code: number }>(
      'SELECT a.status_code FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.event_id = $1',
      [eventId],
    );
    expect(attempts).toEqual([{ status_code: 200 }]);
  });

  it('unpublishes: the public address answers 410', () => {
    match(output, /^app unpublished$/m);
    match(output, /^public address: 410$/m);
  });

  it("prints the account's portal invite, through which the portal is reached", async () => {
    const [, invite] = match(output, /^portal invite: (\S+)$/m);
    match(output, /^invite page: Set your password$/m);
    const path = new URL(invite).pathname;
    const page = await app.http().get(path).expect(200);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
    const cookie = ([] as string[])
      .concat(page.headers['set-cookie'] ?? [])
      .map((c) => c.split(';')[0])
      .join('; ');
    const signedIn = await app.http().post(path).set('cookie', cookie).type('form').send({ _csrf: csrf, password: PASSWORD, confirm: PASSWORD }).expect(303);
    const session = ([] as string[]).concat(signedIn.headers['set-cookie'] ?? []).find((c) => c.startsWith('portal_session='))!;
    const apps = await app.http().get('/portal/apps').set('cookie', session.split(';')[0]).expect(200);
    expect(apps.text).toContain('Recipe Box');
  });

  it('leaves nothing behind: no file in the repository, no receiver still listening', async () => {
    expect(worktreeChanges()).toBe(changesBefore);
    await expect(listening(receiverPort)).resolves.toBe(false);
  });

  it('is what the README shows: every line of its excerpt is a line of the script', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const excerpt = /<!-- excerpt of docs\/tour\.sh[^>]*-->\s*```bash\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(excerpt).toBeDefined();
    const script = new Set(
      readFileSync(join(ROOT, TOUR), 'utf8')
        .split('\n')
        .map((line) => line.trim()),
    );
    const shown = excerpt!
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && line !== '…');
    expect(shown.filter((line) => !script.has(line))).toEqual([]);
    expect(shown.length).toBeGreaterThan(10);
  });
});

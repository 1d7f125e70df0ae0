import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { hasLocalModel, startSdkTestServer } from './support/sdk-server.js';
import { ADMIN_TOKEN, target, TestApp } from './support/test-app.js';
import { describeUnless } from './support/skips.js';

const ROOT = join(import.meta.dirname, '..');
const SDK_DIR = join(ROOT, 'libs/sdk-python');
const hasPython = spawnSync('python3', ['--version']).status === 0;

const describeWithPython = describeUnless(!hasPython && 'python3 is not installed here');

describeWithPython(`Python SDK against a real server (${target})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startSdkTestServer();
  });
  afterAll(() => app.close());

  it('passes its unittest suite', async () => {
    // Asynchronous: the server under test runs in this very process and must keep answering.
    const child = spawn('python3', ['-m', 'unittest', 'discover', '-s', SDK_DIR, '-t', SDK_DIR, '-v'], {
      cwd: SDK_DIR,
      env: { ...process.env, PLATFORM_BASE_URL: app.url, PLATFORM_ADMIN_TOKEN: ADMIN_TOKEN, PLATFORM_AI: hasLocalModel ? 'local' : '' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (status !== 0) console.error(output);
    expect(status).toBe(0);
    expect(output).toMatch(/Ran \d+ tests/);
    expect(output).not.toMatch(/FAILED|ERROR/);
  }, 180_000);
});

import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { OpenAiStub, startOpenAiStub } from './support/openai-stub.js';
import { OPENAI_PYTHON_VERSION, pythonWithOpenAi } from './support/python-openai.js';
import { describeUnless } from './support/skips.js';
import { createAccount, startTestApp, target, TestApp } from './support/test-app.js';

// Made (or found) when the file loads: installing takes a while the first time, and decides whether the suite runs.
const venv = pythonWithOpenAi();

describeUnless(venv.skip ?? false)(`the official openai package for Python against the gateway (${target})`, () => {
  let stub: OpenAiStub;
  let app: TestApp;
  let apiKey: string;
  let spentKey: string;

  beforeAll(async () => {
    stub = await startOpenAiStub();
    app = await startTestApp({
      env: { RATE_LIMIT_AI_MAX: '1000', RATE_LIMIT_MAX: '1000', AI_PROVIDER: 'openai', AI_BASE_URL: stub.url, AI_MODEL: 'stub-model' },
    });
    ({ apiKey } = await createAccount(app));
    // An AI budget of 1 token a day: every call's hold is past it.
    spentKey = (
      await app
        .http()
        .post('/v1/api-keys')
        .set({ authorization: `Bearer ${apiKey}` })
        .send({ name: 'spent', aiTokensPerDay: 1 })
        .expect(201)
    ).body.key;
  });
  afterAll(async () => {
    await app?.close();
    await stub?.close();
  });

  it(`passes its unittest suite (openai==${OPENAI_PYTHON_VERSION})`, async () => {
    // Asynchronous: the server under test runs in this very process and must keep answering.
    const child = spawn(venv.python!, ['-m', 'unittest', '-v', 'test_openai_gateway'], {
      cwd: join(import.meta.dirname, 'python'),
      env: {
        PATH: process.env.PATH ?? '',
        PYTHONDONTWRITEBYTECODE: '1',
        PLATFORM_BASE_URL: app.url,
        PLATFORM_API_KEY: apiKey,
        PLATFORM_SPENT_KEY: spentKey,
        PLATFORM_MODEL: 'stub-model',
      },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (status !== 0) console.error(output);
    expect(status).toBe(0);
    expect(output).toMatch(/Ran 7 tests/);
    expect(output).not.toMatch(/FAILED|ERROR|skipped/);
    // What the client sent reached the upstream as OpenAI's request.
    expect(stub.requestsWith('Say hello')[0].body).toMatchObject({ model: 'stub-model', max_tokens: 20 });
    expect(stub.embeddingRequests.length).toBe(2);
  }, 180_000);
});

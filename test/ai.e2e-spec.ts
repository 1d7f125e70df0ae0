import { existsSync } from 'node:fs';
import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { startChildServer } from './support/child-server.js';
import { TEST_MODEL_PATH } from './support/models.js';
import { OpenAiStub, startOpenAiStub, STUB_TEXT_CHUNKS } from './support/openai-stub.js';
import { createAccountOn, everyRow, everyRowOf } from './support/privacy.js';
import { createAccount, dropFreshResources, freshEnvironment, startTestApp, target, TestApp } from './support/test-app.js';

const MODEL_PATH = TEST_MODEL_PATH;
const NOT_CONFIGURED = 'AI generation is not configured on this server';
// Generous limits: these suites make more AI calls than one key may in a minute by default.
const LIMITS = { RATE_LIMIT_AI_MAX: '1000', RATE_LIMIT_MAX: '1000' };

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

interface StreamResult {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every `data:` payload, in order (`[DONE]` as the string). */
  data: unknown[];
  /** What came after the last complete message (nothing, for a well-formed stream). */
  raw: string;
}

/**
 * POSTs a generation with `stream: true` and reads the event stream to its end — or, with
 * `stopAfter`, hangs up (destroys the socket) after that many messages, as a client that goes away.
 * Plain node:http with no agent, so no connection pool keeps or reopens anything behind the test.
 */
function streamGenerate(url: string, key: string, body: object, stopAfter?: number): Promise<StreamResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/v1/ai/generate`,
      { method: 'POST', agent: false, headers: { ...bearer(key), 'content-type': 'application/json' } },
      (res) => {
        let raw = '';
        const data: unknown[] = [];
        const done = () => resolve({ status: res.statusCode!, headers: res.headers, data, raw });
        res.setEncoding('utf8');
        res.on('data', (text: string) => {
          raw += text;
          let end: number;
          while ((end = raw.indexOf('\n\n')) !== -1) {
            const message = raw.slice(0, end);
            raw = raw.slice(end + 2);
            if (!message.startsWith('data: ')) return reject(new Error(`not an SSE data message: ${message}`));
            const payload = message.slice('data: '.length);
            data.push(payload === '[DONE]' ? payload : JSON.parse(payload));
            if (stopAfter !== undefined && data.length >= stopAfter) {
              req.destroy();
              return done();
            }
          }
        });
        res.on('end', done);
        res.on('error', (err) => (stopAfter !== undefined ? done() : reject(err)));
      },
    );
    req.on('error', (err) => (req.destroyed && stopAfter !== undefined ? undefined : reject(err)));
    req.end(JSON.stringify({ ...body, stream: true }));
  });
}

/** Sends a plain (JSON) generation and hangs up once `hangUpWhen` says so. */
function abandonGenerate(url: string, key: string, body: object, hangUpWhen: () => Promise<unknown>): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(`${url}/v1/ai/generate`, { method: 'POST', agent: false, headers: { ...bearer(key), 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify(body));
    void hangUpWhen().then(() => {
      req.destroy();
      resolve();
    });
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe(`AI generation (${target})`, () => {
  describe('with the local GGUF model', () => {
    let app: TestApp;
    let key: string;
    let accountId: string;

    beforeAll(async () => {
      expect(existsSync(MODEL_PATH)).toBe(true);
      app = await startTestApp({ env: { ...LIMITS, AI_PROVIDER: 'local', AI_MODEL_PATH: MODEL_PATH, AI_THREADS: '1' } });
      ({ apiKey: key, accountId } = await createAccount(app));
    });
    afterAll(() => app?.close());

    it('generates real text, counts tokens and stops at maxTokens with finishReason "length"', async () => {
      const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'Once upon a time', maxTokens: 12 }).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^gen_[0-9A-Z]{26}$/),
        model: 'stories260K',
        text: expect.any(String),
        finishReason: 'length',
        usage: { promptTokens: expect.any(Number), completionTokens: 12, totalTokens: expect.any(Number) },
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      // A story model continues a story: words, not an echo or an empty string.
      expect(res.body.text.trim().length).toBeGreaterThan(5);
      expect(res.body.text).toMatch(/[a-z]{2,}/);
      expect(res.body.usage.promptTokens).toBeGreaterThan(1);
      expect(res.body.usage.totalTokens).toBe(res.body.usage.promptTokens + 12);

      const rows = await app.query(`SELECT * FROM ai_usage WHERE id = $1`, [res.body.id]);
      expect(rows).toEqual([
        expect.objectContaining({
          account_id: accountId,
          credential_id: expect.stringMatching(/.+/),
          provider: 'local',
          model: 'stories260K',
          streamed: false,
          prompt_tokens: res.body.usage.promptTokens,
          completion_tokens: 12,
          total_tokens: res.body.usage.totalTokens,
          outcome: 'success',
          status_code: 200,
          finish_reason: 'length',
        }),
      ]);
      expect(rows[0].latency_ms).toEqual(expect.any(Number));
    });

    it('is deterministic at temperature 0 (the parameter reaches the sampler)', async () => {
      const ask = () => app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'The little dog', maxTokens: 10, temperature: 0 }).expect(200);
      const [a, b] = [await ask(), await ask()];
      expect(a.body.text).toBe(b.body.text);
      expect(a.body.id).not.toBe(b.body.id);
    });

    it('streams several text chunks, then finishReason and usage, then [DONE]', async () => {
      const res = await streamGenerate(app.url, key, { prompt: 'Once upon a time', maxTokens: 16 });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache, no-transform');
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
      const texts = res.data.slice(0, -2) as Array<{ text: string }>;
      expect(texts.length).toBeGreaterThanOrEqual(3);
      for (const chunk of texts) expect(chunk).toEqual({ text: expect.any(String) });
      expect(
        texts
          .map((c) => c.text)
          .join('')
          .trim().length,
      ).toBeGreaterThan(5);
      expect(res.data.at(-2)).toEqual({
        finishReason: 'length',
        usage: { promptTokens: expect.any(Number), completionTokens: 16, totalTokens: expect.any(Number) },
      });
      expect(res.data.at(-1)).toBe('[DONE]');
      expect(res.raw).toBe('');
      const rows = await app.query(`SELECT streamed, outcome, completion_tokens FROM ai_usage WHERE account_id = $1 AND streamed`, [accountId]);
      expect(rows).toEqual([{ streamed: true, outcome: 'success', completion_tokens: 16 }]);
    });

    it('stops generating when the client hangs up mid-stream', async () => {
      const started = Date.now();
      const res = await streamGenerate(app.url, key, { prompt: 'Once upon a time there was', maxTokens: 4096, temperature: 1 }, 2);
      expect(res.data).toHaveLength(2);
      const row = await waitFor(async () => (await app.query(`SELECT * FROM ai_usage WHERE account_id = $1 AND outcome = 'aborted'`, [accountId]))[0]);
      expect(row).toMatchObject({ streamed: true, status_code: 499, provider: 'local' });
      expect(Number(row.completion_tokens)).toBeLessThan(4096);
      // The one context is free again at once: a new generation does not wait for 4096 tokens.
      await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'Next', maxTokens: 2 }).expect(200);
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it.each([
      ['a missing prompt', {}, 'prompt must be 1 to 32000 characters long'],
      ['an empty prompt', { prompt: '' }, 'prompt must be 1 to 32000 characters long'],
      ['a prompt of 32 001 characters', { prompt: 'x'.repeat(32_001) }, 'prompt must be 1 to 32000 characters long'],
      ['a number as prompt', { prompt: 42 }, 'prompt must be a string'],
      ['maxTokens 0', { prompt: 'hi', maxTokens: 0 }, 'maxTokens must be between 1 and 4096'],
      ['maxTokens 5000', { prompt: 'hi', maxTokens: 5000 }, 'maxTokens must be between 1 and 4096'],
      ['maxTokens 2.5', { prompt: 'hi', maxTokens: 2.5 }, 'maxTokens must be an integer'],
      ['maxTokens "10"', { prompt: 'hi', maxTokens: '10' }, 'maxTokens must be an integer'],
      ['temperature 3', { prompt: 'hi', temperature: 3 }, 'temperature must be between 0 and 2'],
      ['temperature -0.1', { prompt: 'hi', temperature: -0.1 }, 'temperature must be between 0 and 2'],
      ['temperature "hot"', { prompt: 'hi', temperature: 'hot' }, 'temperature must be a number'],
      ['stream "yes"', { prompt: 'hi', stream: 'yes' }, 'stream must be a boolean'],
      ['stream 1', { prompt: 'hi', stream: 1 }, 'stream must be a boolean'],
      ['an unknown field', { prompt: 'hi', maxtokens: 5 }, 'property maxtokens should not exist'],
    ])('answers %s with 400 naming the field', async (_label, body, message) => {
      const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send(body).expect(400);
      expect(res.body).toMatchObject({ error: true, code: 400 });
      expect(res.body.message).toContain(message);
    });

    it('names every bad field at once', async () => {
      const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: '', maxTokens: 0, temperature: 3, stream: 'no' }).expect(400);
      for (const field of ['prompt', 'maxTokens', 'temperature', 'stream']) expect(res.body.message).toContain(field);
      expect(res.body.details).toHaveLength(4);
    });

    it('accepts the limits themselves (4096 tokens, temperature 0 and 2; 32 000 characters: with an OpenAI-compatible upstream)', async () => {
      // maxTokens 4096 with a one-token answer budget check would be slow; the validator is what is under test.
      const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'Once', maxTokens: 1, temperature: 2 }).expect(200);
      expect(res.body.usage.completionTokens).toBe(1);
      const big = await streamGenerate(app.url, key, { prompt: 'Hi', maxTokens: 4096, temperature: 0 }, 1);
      expect(big.status).toBe(200);
      // Hung up after one chunk: wait for its row, so later counts are settled.
      await waitFor(async () => {
        const [{ n }] = await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM ai_usage WHERE account_id = $1 AND outcome = 'aborted'`, [accountId]);
        return n === 2 ? true : undefined;
      });
    });

    it('needs a credential with the ai:generate scope', async () => {
      await app.http().post('/v1/ai/generate').send({ prompt: 'hi' }).expect(401);
      const scoped = await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(key))
        .send({ name: 'apps only', scopes: ['apps:read'] })
        .expect(201);
      const res = await app.http().post('/v1/ai/generate').set(bearer(scoped.body.key)).send({ prompt: 'hi', maxTokens: 1 }).expect(403);
      expect(res.body).toMatchObject({ error: true, code: 403, message: expect.stringContaining('ai:generate') });
    });

    it("reports daily usage of the caller's account only, with the analytics:read scope", async () => {
      const today = new Date().toISOString().slice(0, 10);
      const res = await app.http().get(`/v1/ai/usage?from=${today}&to=${today}`).set(bearer(key)).expect(200);
      const rows = await app.query<{ n: string; failed: string; prompt: string; completion: string; total: string }>(
        `SELECT count(*) AS n, count(*) FILTER (WHERE outcome <> 'success') AS failed, sum(prompt_tokens) AS prompt, sum(completion_tokens) AS completion, sum(total_tokens) AS total FROM ai_usage WHERE account_id = $1`,
        [accountId],
      );
      const day = {
        date: today,
        requests: Number(rows[0].n),
        failed: Number(rows[0].failed),
        promptTokens: Number(rows[0].prompt),
        completionTokens: Number(rows[0].completion),
        totalTokens: Number(rows[0].total),
      };
      expect(day.requests).toBeGreaterThanOrEqual(7);
      expect(day.failed).toBeGreaterThanOrEqual(1);
      const { date: _date, ...totals } = day;
      expect(res.body).toEqual({ from: today, to: today, data: [day], totals });

      // Default range: the last 30 days, every day listed, quiet ones as zeros.
      const month = await app.http().get('/v1/ai/usage').set(bearer(key)).expect(200);
      expect(month.body.data).toHaveLength(30);
      expect(month.body.to).toBe(today);
      expect(month.body.data.at(-1)).toEqual(day);
      expect(month.body.data[0]).toEqual({ date: month.body.from, requests: 0, failed: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });

      const other = await createAccount(app);
      const theirs = await app.http().get(`/v1/ai/usage?from=${today}&to=${today}`).set(bearer(other.apiKey)).expect(200);
      expect(theirs.body.totals).toEqual({ requests: 0, failed: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 });

      const generateOnly = await app
        .http()
        .post('/v1/api-keys')
        .set(bearer(key))
        .send({ name: 'gen', scopes: ['ai:generate'] })
        .expect(201);
      const denied = await app.http().get('/v1/ai/usage').set(bearer(generateOnly.body.key)).expect(403);
      expect(denied.body.message).toContain('analytics:read');
    });

    it.each([
      ['from=2026-11-30&to=2026-11-01', 'from must not be after to'],
      ['from=2026-02-31', 'from must be a date (YYYY-MM-DD, years 0001-9999)'],
      ['to=yesterday', 'to must be a date (YYYY-MM-DD)'],
      ['from=2024-01-01&to=2026-01-01', 'from and to must be at most 366 days apart'],
      ['since=2026-01-01', 'property since should not exist'],
    ])('answers usage?%s with 400', async (query, message) => {
      const res = await app.http().get(`/v1/ai/usage?${query}`).set(bearer(key)).expect(400);
      expect(res.body).toMatchObject({ error: true, code: 400 });
      expect(res.body.message).toContain(message);
    });

    it('stores no prompt and no output in any table', async () => {
      const prompt = 'My friend alice@example.com wrote a story about a cat named Zorblax';
      const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt, maxTokens: 8 }).expect(200);
      const all = await everyRow((sql) => app.query(sql));
      expect(all).toContain(res.body.id);
      expect(all).not.toContain('alice@example.com');
      expect(all).not.toContain('Zorblax');
      if (res.body.text.trim().length > 8) expect(all).not.toContain(res.body.text.trim());
    });
  });

  describe('with an OpenAI-compatible upstream', () => {
    let stub: OpenAiStub;
    let app: TestApp;
    let key: string;
    let accountId: string;
    const TIMEOUT_MS = 1500;

    beforeAll(async () => {
      stub = await startOpenAiStub();
      app = await startTestApp({
        env: {
          ...LIMITS,
          AI_PROVIDER: 'openai',
          AI_BASE_URL: stub.url,
          AI_API_KEY: 'sk-upstream-secret',
          AI_MODEL: 'stub-model',
          AI_TIMEOUT_MS: String(TIMEOUT_MS),
        },
      });
      ({ apiKey: key, accountId } = await createAccount(app));
    });
    afterAll(async () => {
      await app?.close();
      await stub?.close();
    });

    const generate = (body: object) => app.http().post('/v1/ai/generate').set(bearer(key)).send(body);
    const usageRow = async (id: string) => (await app.query(`SELECT * FROM ai_usage WHERE id = $1`, [id]))[0];
    const lastUsageRow = async () =>
      (await app.query(`SELECT * FROM ai_usage WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [accountId]))[0];

    it('maps the request to a chat completion and the answer back', async () => {
      const res = await generate({ prompt: 'Say hello [plain]', maxTokens: 50, temperature: 0.3 }).expect(200);
      expect(res.body).toEqual({
        id: expect.stringMatching(/^gen_/),
        model: 'stub-model-0613',
        text: 'The stub says hello.',
        finishReason: 'stop',
        usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 },
        createdAt: expect.any(String),
      });
      const [sent] = stub.requestsWith('[plain]');
      expect(sent.body).toEqual({ model: 'stub-model', messages: [{ role: 'user', content: 'Say hello [plain]' }], max_tokens: 50, temperature: 0.3 });
      expect(sent.headers.authorization).toBe('Bearer sk-upstream-secret');
      expect(await usageRow(res.body.id)).toMatchObject({
        provider: 'openai',
        model: 'stub-model-0613',
        prompt_tokens: 3,
        completion_tokens: 5,
        total_tokens: 8,
        outcome: 'success',
        status_code: 200,
      });
    });

    it('runs a generation once per Idempotency-Key and never stores its text: the replay is a 409', async () => {
      const headers = { ...bearer(key), 'idempotency-key': 'generate-once-0001' };
      const first = await app.http().post('/v1/ai/generate').set(headers).send({ prompt: 'Once [idem]' }).expect(200);
      const again = await app.http().post('/v1/ai/generate').set(headers).send({ prompt: 'Once [idem]' }).expect(409);
      expect(again.body).toMatchObject({
        error: true,
        code: 409,
        reason: 'idempotent_response_not_kept',
        message: expect.stringContaining('generated text is never stored'),
      });
      expect(stub.requestsWith('[idem]')).toHaveLength(1);
      expect(await app.query(`SELECT count(*)::int AS n FROM ai_usage WHERE account_id = $1 AND id = $2`, [accountId, first.body.id])).toEqual([{ n: 1 }]);
      const stored = await app.query<{ response_body: string }>(`SELECT response_body FROM idempotency_keys WHERE key = 'generate-once-0001'`);
      expect(stored[0].response_body).not.toContain(first.body.text);
    });

    it('accepts a prompt of 32 000 characters, the longest, and passes it on whole', async () => {
      // Here rather than with the local model, which would spend seconds reading ~16 000 tokens.
      const prompt = `${'a '.repeat(15_996)}[limits]`;
      expect(prompt).toHaveLength(32_000);
      await generate({ prompt, maxTokens: 4096, temperature: 2 }).expect(200);
      const [sent] = stub.requestsWith('[limits]');
      expect(sent.body).toMatchObject({ messages: [{ role: 'user', content: prompt }], max_tokens: 4096, temperature: 2 });
    });

    it('passes finish_reason "length" through, and sends no temperature when none was asked', async () => {
      const res = await generate({ prompt: 'Short [short]', maxTokens: 2 }).expect(200);
      expect(res.body).toMatchObject({ text: 'The stub', finishReason: 'length', usage: { completionTokens: 2 } });
      expect(stub.requestsWith('[short]')[0].body).not.toHaveProperty('temperature');
    });

    it('streams with stream_options.include_usage and relays chunks, usage and [DONE]', async () => {
      const res = await streamGenerate(app.url, key, { prompt: 'Stream it [sse]', maxTokens: 50 });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(res.data).toEqual([
        ...STUB_TEXT_CHUNKS.map((text) => ({ text })),
        { finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 5, totalTokens: 8 } },
        '[DONE]',
      ]);
      expect(stub.requestsWith('[sse]')[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 50 });
      // The model the upstream named in its chunks, as in a plain answer.
      expect(await lastUsageRow()).toMatchObject({ streamed: true, outcome: 'success', total_tokens: 8, model: 'stub-model-0613' });
    });

    it.each([
      [401, 502, 'upstream_auth'],
      [403, 502, 'upstream_auth'],
      [429, 429, 'upstream_rate_limited'],
      [500, 502, 'upstream_failed'],
      [503, 502, 'upstream_failed'],
      [400, 502, 'upstream_failed'],
    ])('maps upstream %i to %i without leaking the upstream body', async (upstream, status, outcome) => {
      const marker = `[status:${upstream}] alice@example.com #${upstream}`;
      const res = await generate({ prompt: marker, maxTokens: 5 }).expect(status);
      expect(res.body).toEqual({
        error: true,
        code: status,
        message: expect.any(String),
        reason: upstream === 429 ? 'upstream_rate_limited' : upstream >= 500 || upstream === 400 ? 'upstream_failed' : 'upstream_auth',
        requestId: res.headers['x-request-id'],
      });
      expect(res.body.message).not.toMatch(/alice|refused the prompt|stub_error/);
      if (upstream === 401 || upstream === 403) expect(res.body.message).toContain('AI_API_KEY');
      if (upstream === 429) {
        expect(res.headers['retry-after']).toBe('7');
        expect(res.body.message).toBe('The AI provider is rate limiting this server. Retry later.');
      }
      // One retry for 5xx only.
      expect(stub.requestsWith(marker)).toHaveLength(upstream >= 500 ? 2 : 1);
      expect(await lastUsageRow()).toMatchObject({ outcome, status_code: status, completion_tokens: 0 });
    });

    it('retries a 5xx once and answers 200 when the retry works', async () => {
      const res = await generate({ prompt: 'Flaky [status:503-once]', maxTokens: 5 }).expect(200);
      expect(res.body.text).toBe('The stub says hello.');
      expect(stub.requestsWith('[status:503-once]')).toHaveLength(2);
    });

    it('retries a dropped connection once, then answers 502', async () => {
      const res = await generate({ prompt: 'Drop it [drop]', maxTokens: 5 }).expect(502);
      expect(res.body).toMatchObject({ error: true, code: 502, message: 'The AI provider could not be reached' });
      expect(stub.requestsWith('[drop]')).toHaveLength(2);
      expect(await lastUsageRow()).toMatchObject({ outcome: 'upstream_unreachable', status_code: 502 });
    });

    it('never retries a stream, and refuses it with a plain JSON error before any event', async () => {
      const res = await generate({ prompt: 'Stream fails [status:500] [stream-500]', maxTokens: 5, stream: true }).expect(502);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ error: true, code: 502, message: 'The AI provider failed (HTTP 500)' });
      expect(stub.requestsWith('[stream-500]')).toHaveLength(1);
    });

    it('ends a stream that breaks midway with an error event and no [DONE]', async () => {
      const res = await streamGenerate(app.url, key, { prompt: 'Break [stream-break]', maxTokens: 50 });
      expect(res.data).toEqual([{ text: 'The' }, { error: true, code: 502, message: expect.any(String) }]);
      expect(await lastUsageRow()).toMatchObject({ streamed: true, outcome: 'upstream_unreachable', status_code: 502, completion_tokens: 1 });
    });

    it(`answers 504 when the upstream does not answer within AI_TIMEOUT_MS (${TIMEOUT_MS} ms), and hangs up on it`, async () => {
      const started = Date.now();
      const res = await generate({ prompt: 'Wait [hang] [timeout]', maxTokens: 5 }).expect(504);
      const elapsed = Date.now() - started;
      expect(res.body).toEqual({
        error: true,
        code: 504,
        message: `The AI provider did not finish within ${TIMEOUT_MS} ms`,
        reason: 'timeout',
        requestId: expect.any(String),
      });
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
      expect(elapsed).toBeLessThan(TIMEOUT_MS + 3000);
      const [upstream] = stub.requestsWith('[timeout]');
      await upstream.closed;
      expect(upstream.abandoned()).toBe(true);
      expect(await lastUsageRow()).toMatchObject({ outcome: 'timeout', status_code: 504 });
    });

    it('the deadline also ends a stream that goes silent, with a 504 error event', async () => {
      const res = await streamGenerate(app.url, key, { prompt: 'Silent [stream-hang] [silent]', maxTokens: 50 });
      expect(res.data).toEqual([
        { text: 'The' },
        { text: ' stub' },
        { error: true, code: 504, message: `The AI provider did not finish within ${TIMEOUT_MS} ms` },
      ]);
      const [upstream] = stub.requestsWith('[silent]');
      await upstream.closed;
      expect(upstream.abandoned()).toBe(true);
    });

    it('hangs up on the upstream when the client hangs up, streamed or not', async () => {
      const streamed = await streamGenerate(app.url, key, { prompt: 'Bye [stream-hang] [client-gone]', maxTokens: 50 }, 1);
      expect(streamed.data).toEqual([{ text: 'The' }]);
      const [upstream] = stub.requestsWith('[client-gone]');
      await upstream.closed;
      expect(upstream.abandoned()).toBe(true);
      await waitFor(async () => ((await lastUsageRow()).outcome === 'aborted' ? true : undefined));
      expect(await lastUsageRow()).toMatchObject({ streamed: true, status_code: 499 });

      await abandonGenerate(app.url, key, { prompt: 'Bye [hang] [client-gone-json]', maxTokens: 5 }, () =>
        waitFor(async () => (stub.requestsWith('[client-gone-json]').length ? true : undefined)),
      );
      const [json] = stub.requestsWith('[client-gone-json]');
      await json.closed;
      expect(json.abandoned()).toBe(true);
      await waitFor(async () => ((await lastUsageRow()).outcome === 'aborted' && !(await lastUsageRow()).streamed ? true : undefined));
    });

    it('sends the prompt as written when AI_REDACT_PII is off', async () => {
      await generate({ prompt: 'Mail alice@example.com [unredacted]', maxTokens: 5 }).expect(200);
      expect(stub.requestsWith('[unredacted]')[0].body.messages[0].content).toBe('Mail alice@example.com [unredacted]');
    });
  });

  describe('with an upstream that refuses connections', () => {
    let app: TestApp;
    let key: string;

    beforeAll(async () => {
      app = await startTestApp({ env: { ...LIMITS, AI_PROVIDER: 'openai', AI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, AI_MODEL: 'm' } });
      ({ apiKey: key } = await createAccount(app));
    });
    afterAll(() => app?.close());

    it('answers 502 (after one retry) for plain and streamed requests', async () => {
      for (const stream of [false, true]) {
        const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'hi', stream }).expect(502);
        expect(res.body).toEqual({
          error: true,
          code: 502,
          message: 'The AI provider could not be reached',
          reason: 'upstream_unreachable',
          requestId: expect.any(String),
        });
      }
    });
  });

  describe('without a provider', () => {
    let app: TestApp;
    let key: string;

    beforeAll(async () => {
      app = await startTestApp({ env: { RATE_LIMIT_AI_MAX: '3' } });
      ({ apiKey: key } = await createAccount(app));
    });
    afterAll(() => app?.close());

    it('answers 503 with the error body, streamed or not, and records nothing', async () => {
      for (const stream of [false, true]) {
        const res = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'hi', stream }).expect(503);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.body).toEqual({ error: true, code: 503, message: NOT_CONFIGURED, reason: 'not_configured', requestId: res.headers['x-request-id'] });
      }
      expect(await app.query(`SELECT * FROM ai_usage`)).toEqual([]);
    });

    it('still validates first, and counts generations in the AI rate limit (RATE_LIMIT_AI_MAX)', async () => {
      // Two generations above, one here: the fourth is over the AI limit of 3.
      await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: '' }).expect(400);
      const limited = await app.http().post('/v1/ai/generate').set(bearer(key)).send({ prompt: 'hi' }).expect(429);
      expect(limited.body).toMatchObject({ error: true, code: 429, message: 'Rate limit reached. Retry in 60 seconds.' });
      expect(limited.headers['retry-after']).toBe('60');
      // The AI bucket is spent, the general one is not: the same key still lists its apps.
      const other = await app.http().get('/v1/apps').set(bearer(key)).expect(200);
      expect(other.headers['x-ratelimit-limit']).toBe('100');
    });

    it('documents both routes in the OpenAPI document, with JSON and event-stream answers', async () => {
      const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
      const op = doc.paths['/v1/ai/generate'].post;
      expect(op.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/GenerateDto');
      expect(op.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/GenerationDto');
      expect(op.responses['200'].content['text/event-stream'].schema.type).toBe('string');
      for (const status of ['400', '401', '403', '429', '502', '503', '504']) {
        expect(op.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
      }
      expect(op.security).toEqual([{ bearer: [] }]);
      const dto = doc.components.schemas.GenerateDto;
      expect(dto.required).toEqual(['prompt']);
      expect(dto.properties.prompt).toMatchObject({ type: 'string', minLength: 1, maxLength: 32000 });
      expect(dto.properties.maxTokens).toMatchObject({ minimum: 1, maximum: 4096 });
      expect(dto.properties.temperature).toMatchObject({ minimum: 0, maximum: 2 });
      expect(dto.properties.stream).toMatchObject({ type: 'boolean' });
      expect(dto.properties.prompt.example).toBeTruthy();
      expect(doc.components.schemas.GenerationDto.properties.finishReason.enum).toEqual(['stop', 'length']);
      expect(doc.paths['/v1/ai/usage'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/UsageDto');
    });
  });

  describe('privacy, in a real server process', () => {
    let stub: OpenAiStub;
    let env: Record<string, string>;

    beforeAll(async () => {
      stub = await startOpenAiStub();
      env = await freshEnvironment();
    });
    afterAll(async () => {
      await stub?.close();
      if (env) await dropFreshResources(env);
    });

    it('logs and stores neither prompts nor outputs, and masks e-mails and phones before a remote call', async () => {
      const child = await startChildServer({ ...env, ...LIMITS, AI_PROVIDER: 'openai', AI_BASE_URL: stub.url, AI_MODEL: 'stub-model', AI_REDACT_PII: 'true' });
      const prompt = 'Write to alice@example.com or call +1 (555) 123-4567 about Quibbleflux';
      try {
        const { apiKey } = await createAccountOn(child.url);
        const post = (body: object) =>
          fetch(`${child.url}/v1/ai/generate`, {
            method: 'POST',
            headers: { ...bearer(apiKey), 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        const plain = await post({ prompt, maxTokens: 50 });
        expect(plain.status).toBe(200);
        expect(((await plain.json()) as { text: string }).text).toBe('The stub says hello.');
        const streamed = await post({ prompt, maxTokens: 50, stream: true });
        expect(await streamed.text()).toContain('[DONE]');
        const failed = await post({ prompt: `${prompt} [status:500]`, maxTokens: 5 });
        expect(failed.status).toBe(502);
        const invalid = await post({ prompt, maxTokens: 0 });
        expect(invalid.status).toBe(400);

        // What left for the remote provider was masked.
        const sent = stub.requestsWith('Quibbleflux').map((r) => r.body.messages[0].content);
        expect(sent.length).toBe(4);
        for (const content of sent) {
          expect(content).toContain('Write to [email] or call [phone] about Quibbleflux');
          expect(content).not.toContain('alice');
          expect(content).not.toContain('555');
        }
      } finally {
        await child.stop();
      }
      const log = child.output();
      expect(log).toMatch(/"url":"\/v1\/ai\/generate"/); // the requests were logged...
      expect(log).toMatch(/"statusCode":502/);
      for (const secret of ['alice@example.com', 'Quibbleflux', '(555) 123-4567', 'The stub says hello', 'stub says']) expect(log).not.toContain(secret); // ...their content was not

      const rows = await everyRowOf(env);
      expect(rows).toContain('gen_');
      for (const secret of ['alice', 'Quibbleflux', '555) 123', 'The stub says hello']) expect(rows).not.toContain(secret);
    });
  });
});

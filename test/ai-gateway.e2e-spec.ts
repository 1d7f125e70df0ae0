import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { startChildServer } from './support/child-server.js';
import { TEST_MODEL_PATH } from './support/models.js';
import { OpenAiStub, startOpenAiStub, STUB_TEXT_CHUNKS } from './support/openai-stub.js';
import { createAccountOn, everyRowOf } from './support/privacy.js';
import { createAccount, dropFreshResources, freshEnvironment, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

// Generous limits: these suites make more AI calls than one key may in a minute by default.
const LIMITS = { RATE_LIMIT_AI_MAX: '1000', RATE_LIMIT_MAX: '1000' };
const STUB_TEXT = STUB_TEXT_CHUNKS.join('');

/** The official client, as a developer points it at the platform. No retries: each test sees each answer. */
function openai(app: TestApp, apiKey: string): OpenAI {
  return new OpenAI({ baseURL: `${app.url}/v1`, apiKey, maxRetries: 0 });
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What the client raised (the test fails if it raised nothing). */
async function raised(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OpenAI.APIError) return err;
    throw err;
  }
  throw new Error('expected the client to raise');
}

/** The body of an error answer, read raw (OpenAI's Node client keeps only its `error` field). */
async function errorBody(app: TestApp, key: string, path: string, body: object) {
  return app.http().post(path).set('authorization', `Bearer ${key}`).send(body);
}

/** A metric's value in /metrics for the labels given (0 when the series does not exist). */
async function metric(app: TestApp, name: string, labels: Record<string, string>): Promise<number> {
  const text = (await app.http().get('/metrics').expect(200)).text;
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && want.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

function decodeBase64Floats(text: string): number[] {
  const bytes = Buffer.from(text, 'base64');
  return Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
}

describe(`AI gateway: the OpenAI API (${target})`, () => {
  describe('with OpenAI-compatible upstreams, fallbacks between them', () => {
    let primary: OpenAiStub;
    let backup: OpenAiStub;
    let app: TestApp;
    let key: string;
    let accountId: string;
    let dir: string;
    const TARGET_TIMEOUT_MS = 800;

    beforeAll(async () => {
      [primary, backup] = await Promise.all([startOpenAiStub(), startOpenAiStub()]);
      dir = mkdtempSync(join(tmpdir(), 'ai-providers-'));
      const file = join(dir, 'providers.json');
      writeFileSync(
        file,
        JSON.stringify({
          providers: {
            primary: { type: 'openai', baseUrl: primary.url, apiKey: 'sk-primary', timeoutMs: TARGET_TIMEOUT_MS },
            backup: { type: 'openai', baseUrl: backup.url, apiKeyEnv: 'BACKUP_KEY' },
            down: { type: 'openai', baseUrl: `http://127.0.0.1:${await closedPort()}/v1` },
          },
          models: {
            fast: ['primary/gpt-a', 'backup/gpt-b'],
            solo: { targets: ['backup/gpt-b'], maxTokens: 100, ownedBy: 'acme' },
            refused: ['down/gpt-x', 'backup/gpt-b'],
            embed: ['backup/emb-1'],
          },
          default: 'fast',
        }),
      );
      app = await startTestApp({ env: { ...LIMITS, AI_PROVIDERS_FILE: file, AI_TIMEOUT_MS: '3000', BACKUP_KEY: 'sk-backup' } });
      ({ apiKey: key, accountId } = await createAccount(app));
    });
    afterEach(() => {
      primary.failWith(undefined);
      backup.failWith(undefined);
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([primary?.close(), backup?.close()]);
      rmSync(dir, { recursive: true, force: true });
    });

    const lastUsage = async () => (await app.query(`SELECT * FROM ai_usage WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1`, [accountId]))[0];

    it('lists the models the operator offers (models.list)', async () => {
      const page = await openai(app, key).models.list();
      expect(page.data).toEqual([
        { id: 'fast', object: 'model', created: expect.any(Number), owned_by: 'primary' },
        { id: 'solo', object: 'model', created: expect.any(Number), owned_by: 'acme' },
        { id: 'refused', object: 'model', created: expect.any(Number), owned_by: 'down' },
        { id: 'embed', object: 'model', created: expect.any(Number), owned_by: 'backup' },
      ]);
      expect(page.data[0].created).toBeGreaterThan(1_700_000_000);
    });

    it("answers a chat completion in OpenAI's shape, and records it as usage", async () => {
      const completion = await openai(app, key).chat.completions.create({
        model: 'solo',
        messages: [
          { role: 'system', content: 'Be brief. [plain-chat]' },
          { role: 'user', content: 'Say hello' },
        ],
        max_tokens: 50,
        temperature: 0.2,
      });
      expect(completion).toEqual({
        id: expect.stringMatching(/^chatcmpl-[0-9A-Z]{26}$/),
        object: 'chat.completion',
        created: expect.any(Number),
        model: 'solo',
        choices: [{ index: 0, message: { role: 'assistant', content: STUB_TEXT }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
      });
      expect(Math.abs(completion.created - Date.now() / 1000)).toBeLessThan(60);
      const [sent] = backup.requestsWith('[plain-chat]');
      expect(sent.body).toEqual({
        model: 'gpt-b',
        messages: [
          { role: 'system', content: 'Be brief. [plain-chat]' },
          { role: 'user', content: 'Say hello' },
        ],
        max_tokens: 50,
        temperature: 0.2,
      });
      expect(sent.headers.authorization).toBe('Bearer sk-backup');
      expect(await lastUsage()).toMatchObject({
        id: `gen_${completion.id.slice('chatcmpl-'.length)}`,
        kind: 'chat',
        requested_model: 'solo',
        provider: 'backup',
        model: 'gpt-b-0613',
        fallbacks: 0,
        streamed: false,
        prompt_tokens: 5,
        completion_tokens: 5,
        total_tokens: 10,
        outcome: 'success',
        status_code: 200,
        finish_reason: 'stop',
      });
      const meter = await app.query<{ quantity: string }>(
        `SELECT quantity FROM usage_records WHERE account_id = $1 AND meter = 'ai.tokens' AND source_id = $2`,
        [accountId, (await lastUsage()).id],
      );
      expect(meter.map((m) => Number(m.quantity))).toEqual([10]);
    });

    it("passes OpenAI's other fields to the upstream as sent, and sends the model's own max_tokens when none is asked", async () => {
      const tools = [
        {
          type: 'function' as const,
          function: { name: 'weather', description: 'Weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        },
      ];
      await openai(app, key).chat.completions.create({
        model: 'solo',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather in Paris? [passed-on]' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
        tools,
        tool_choice: 'auto',
        response_format: { type: 'text' },
        n: 2,
        seed: 7,
        user: 'user-42',
        stop: ['\n\n'],
        logit_bias: { '50256': -100 },
      });
      const [sent] = backup.requestsWith('[passed-on]');
      expect(sent.body).toEqual({
        model: 'gpt-b',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather in Paris? [passed-on]' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
        tools,
        tool_choice: 'auto',
        response_format: { type: 'text' },
        n: 2,
        seed: 7,
        user: 'user-42',
        stop: ['\n\n'],
        logit_bias: { '50256': -100 },
        max_tokens: 100,
      });
    });

    it('streams chat.completion.chunk objects, with the usage chunk when include_usage is asked', async () => {
      const client = openai(app, key);
      const stream = await client.chat.completions.create({
        model: 'solo',
        messages: [{ role: 'user', content: 'Stream it [stream-usage]' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of stream) chunks.push(chunk);
      const ids = new Set(chunks.map((c) => c.id));
      expect([...ids]).toEqual([expect.stringMatching(/^chatcmpl-/)]);
      for (const chunk of chunks) expect(chunk).toMatchObject({ object: 'chat.completion.chunk', model: 'solo', created: expect.any(Number) });
      expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
      expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe(STUB_TEXT);
      expect(chunks.at(-2)!.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
      expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
      expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } });
      expect(backup.requestsWith('[stream-usage]')[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
      expect(await lastUsage()).toMatchObject({ kind: 'chat', streamed: true, outcome: 'success', total_tokens: 8, finish_reason: 'stop' });

      // Without include_usage: no usage anywhere (the upstream is still asked for it, to meter the call).
      const plain: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of await client.chat.completions.create({
        model: 'solo',
        messages: [{ role: 'user', content: 'Again [stream-plain]' }],
        stream: true,
      }))
        plain.push(chunk);
      expect(plain.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
      expect(backup.requestsWith('[stream-plain]')[0].body).toMatchObject({ stream_options: { include_usage: true } });
      expect(await lastUsage()).toMatchObject({ streamed: true, outcome: 'success', total_tokens: 7 });
    });

    it("makes embeddings, as floats and as the base64 OpenAI's Node client asks for by default", async () => {
      const client = openai(app, key);
      const asFloats = await client.embeddings.create({ model: 'embed', input: ['first text', 'second'], encoding_format: 'float' });
      expect(asFloats).toEqual({
        object: 'list',
        model: 'embed',
        data: [
          { object: 'embedding', index: 0, embedding: expect.any(Array) },
          { object: 'embedding', index: 1, embedding: expect.any(Array) },
        ],
        usage: { prompt_tokens: 3, total_tokens: 3 },
      });
      expect(asFloats.data[0].embedding).toHaveLength(8);
      // The client's default: base64 on the wire, decoded by the client.
      const byDefault = await client.embeddings.create({ model: 'embed', input: 'first text' });
      expect(byDefault.data[0].embedding.map((n) => Math.round(n * 1e5))).toEqual(asFloats.data[0].embedding.map((n) => Math.round(n * 1e5)));
      const wire = await errorBody(app, key, '/v1/embeddings', { model: 'embed', input: 'first text', encoding_format: 'base64' });
      expect(wire.status).toBe(200);
      expect(decodeBase64Floats(wire.body.data[0].embedding).map((n) => Math.round(n * 1e5))).toEqual(
        asFloats.data[0].embedding.map((n) => Math.round(n * 1e5)),
      );
      // The upstream is always asked for floats.
      expect(backup.embeddingRequests.map((r) => r.body.encoding_format)).toEqual(['float', 'float', 'float']);
      expect(backup.embeddingRequests[0].body).toEqual({ model: 'emb-1', input: ['first text', 'second'], encoding_format: 'float' });
      expect(await lastUsage()).toMatchObject({
        kind: 'embeddings',
        requested_model: 'embed',
        provider: 'backup',
        model: 'emb-1-v2',
        prompt_tokens: 2,
        total_tokens: 2,
      });
    });

    it("runs an agent of OpenAI's Agents SDK (@openai/agents) on the platform's chat completions", async () => {
      setDefaultOpenAIClient(openai(app, key));
      setOpenAIAPI('chat_completions');
      setTracingDisabled(true); // its traces would go to OpenAI: prompts and answers stay here
      const agent = new Agent({ name: 'Copywriter', instructions: 'You write short product copy. [agent]', model: 'solo' });
      const result = await run(agent, 'A tagline for a recipe app');
      expect(result.finalOutput).toBe(STUB_TEXT);
      const [sent] = backup.requestsWith('[agent]');
      expect(sent.body).toMatchObject({
        model: 'gpt-b',
        messages: [
          { role: 'system', content: 'You write short product copy. [agent]' },
          { role: 'user', content: 'A tagline for a recipe app' },
        ],
      });
      expect(await lastUsage()).toMatchObject({ kind: 'chat', requested_model: 'solo', outcome: 'success' });
    });

    it('raises AuthenticationError for an invalid key, with the envelope and WWW-Authenticate', async () => {
      const err = await raised(
        openai(app, 'sk_not_a_real_key_000000000000000000').chat.completions.create({ model: 'solo', messages: [{ role: 'user', content: 'hi' }] }),
      );
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect(err.status).toBe(401);
      expect(err.headers?.get('www-authenticate')).toMatch(/^Bearer/);
      const raw = await errorBody(app, 'sk_not_a_real_key_000000000000000000', '/v1/chat/completions', { model: 'solo', messages: [] });
      expect(raw.body).toMatchObject({ error: true, code: 401, reason: 'invalid_credential' });
    });

    it('raises BadRequestError for an unknown model, naming it (reason model_not_found)', async () => {
      const err = await raised(openai(app, key).chat.completions.create({ model: 'gpt-5-turbo', messages: [{ role: 'user', content: 'hi' }] }));
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      const raw = await errorBody(app, key, '/v1/chat/completions', { model: 'gpt-5-turbo', messages: [{ role: 'user', content: 'hi' }] });
      expect(raw.body).toMatchObject({ error: true, code: 400, reason: 'model_not_found', message: expect.stringContaining('"gpt-5-turbo"') });
      expect(raw.body.message).toContain('fast, solo, refused, embed');
      const embed = await errorBody(app, key, '/v1/embeddings', { model: 'nope', input: 'x' });
      expect(embed.body).toMatchObject({ code: 400, reason: 'model_not_found' });
      expect(backup.requestsWith('hi')).toEqual([]);
    });

    it.each([
      ['an unknown field', { temprature: 0.5 }, 'property temprature should not exist'],
      ['no messages', { messages: [] }, 'messages must hold at least one message'],
      ['too many messages', { messages: Array.from({ length: 1001 }, () => ({ role: 'user', content: 'x' })) }, 'messages must hold at most 1000 messages'],
      ['a message without a role', { messages: [{ content: 'hi' }] }, 'messages.0.role must be one of system, developer, user, assistant'],
      ['a message with a number as content', { messages: [{ role: 'user', content: 42 }] }, 'messages.0.content must be a string or an array of content parts'],
      ['a text part without text', { messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages.0.content.0.text must be a string'],
      ['a message with a typo', { messages: [{ role: 'user', content: 'hi', nmae: 'x' }] }, 'property messages.0.nmae should not exist'],
      ['too many tokens', { max_tokens: 101 }, 'max_tokens must be at most 100 for the model solo'],
      ['temperature 3', { temperature: 3 }, 'temperature must be between 0 and 2'],
      ['stream_options without stream', { stream_options: { include_usage: true } }, 'stream_options is only allowed with stream: true'],
      ['store: true', { store: true }, 'store must be false: prompts and answers are never stored'],
      ['a model that is not a string', { model: 7 }, 'model must be a string'],
    ])('answers %s with 400 naming it', async (_label, change, message) => {
      const res = await errorBody(app, key, '/v1/chat/completions', { model: 'solo', messages: [{ role: 'user', content: 'hi [bad-input]' }], ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: true, code: 400, message: expect.stringContaining(message) });
      expect(backup.requestsWith('[bad-input]')).toEqual([]);
    });

    it.each([
      ['an empty string', '', 'input must not be empty'],
      ['an empty item', ['a', ''], 'input.1 must not be empty'],
      ['token arrays', [[1, 2, 3]], 'input must be a string or an array of 1 to 2048 strings'],
      ['2049 inputs', Array.from({ length: 2049 }, () => 'x'), 'input must be a string or an array of 1 to 2048 strings'],
    ])('answers embeddings of %s with 400 naming input', async (_label, input, message) => {
      const res = await errorBody(app, key, '/v1/embeddings', { model: 'embed', input });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(message);
    });

    describe('fallback', () => {
      it.each([
        ['a 429', () => primary.failWith({ status: 429 }), 'upstream_rate_limited'],
        ['a 500', () => primary.failWith({ status: 500 }), 'upstream_failed'],
        [`a target that does not answer within its timeoutMs (${TARGET_TIMEOUT_MS} ms)`, () => primary.failWith('hang'), 'timeout'],
      ])('goes to the next target on %s, logs and counts it, and the client sees one answer', async (_label, fail, reason) => {
        fail();
        const labels = { model: 'fast', from: 'primary/gpt-a', to: 'backup/gpt-b', reason };
        const before = await metric(app, 'ai_fallbacks_total', labels);
        const marker = `[fallback-${reason}]`;
        const completion = await openai(app, key).chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: `Hello ${marker}` }] });
        expect(completion).toMatchObject({ model: 'fast', choices: [{ message: { content: STUB_TEXT } }] });
        expect(primary.requestsWith(marker)).toHaveLength(1);
        expect(backup.requestsWith(marker).map((r) => r.body.model)).toEqual(['gpt-b']);
        expect(await metric(app, 'ai_fallbacks_total', labels)).toBe(before + 1);
        expect(await lastUsage()).toMatchObject({ requested_model: 'fast', provider: 'backup', fallbacks: 1, outcome: 'success' });
        if (reason === 'timeout') {
          // The slow target was hung up on.
          const [slow] = primary.requestsWith(marker);
          await slow.closed;
          expect(slow.abandoned()).toBe(true);
        }
      });

      it('goes to the next target when the first refuses the connection', async () => {
        const completion = await openai(app, key).chat.completions.create({ model: 'refused', messages: [{ role: 'user', content: 'Hi [refused]' }] });
        expect(completion.choices[0].message.content).toBe(STUB_TEXT);
        expect(await metric(app, 'ai_fallbacks_total', { model: 'refused', from: 'down/gpt-x', to: 'backup/gpt-b', reason: 'upstream_unreachable' })).toBe(1);
      });

      it('falls back for a stream that fails before its first token', async () => {
        primary.failWith({ status: 503 });
        const text: string[] = [];
        for await (const chunk of await openai(app, key).chat.completions.create({
          model: 'fast',
          messages: [{ role: 'user', content: 'Go [stream-fallback]' }],
          stream: true,
        }))
          text.push(chunk.choices[0]?.delta?.content ?? '');
        expect(text.join('')).toBe(STUB_TEXT);
        expect(backup.requestsWith('[stream-fallback]')).toHaveLength(1);
      });

      it('never falls back once the stream has started: the client raises mid-stream, as with OpenAI', async () => {
        primary.failWith('stream-break');
        const seen: string[] = [];
        const stream = await openai(app, key).chat.completions.create({
          model: 'fast',
          messages: [{ role: 'user', content: 'Go [no-fallback]' }],
          stream: true,
        });
        const err = await raised(
          (async () => {
            for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.content ?? '');
          })(),
        );
        expect(seen.join('')).toBe('The');
        expect(err.message).toBe('The connection to the AI provider broke during the generation');
        expect(err.error).toMatchObject({ type: 'server_error', code: 'upstream_unreachable' });
        expect(backup.requestsWith('[no-fallback]')).toEqual([]);
        await until(async () => (await lastUsage()).outcome === 'upstream_unreachable');
        expect(await lastUsage()).toMatchObject({ streamed: true, provider: 'primary', fallbacks: 0, status_code: 502, completion_tokens: 1 });
      });

      it('answers the last failure when every target failed (429 with Retry-After: RateLimitError)', async () => {
        primary.failWith({ status: 500 });
        backup.failWith({ status: 429 });
        const err = await raised(openai(app, key).chat.completions.create({ model: 'fast', messages: [{ role: 'user', content: 'Hi [all-fail]' }] }));
        expect(err).toBeInstanceOf(OpenAI.RateLimitError);
        expect(err.headers?.get('retry-after')).toBe('7');
        expect(primary.requestsWith('[all-fail]')).toHaveLength(1);
        expect(backup.requestsWith('[all-fail]')).toHaveLength(1);
        expect(await lastUsage()).toMatchObject({ outcome: 'upstream_rate_limited', provider: 'backup', fallbacks: 1, status_code: 429 });
      });
    });

    it("answers an upstream's garbage with 502 and a hang with 504, releasing the hold and storing nothing", async () => {
      backup.failWith({ status: 200 }); // an error object where a completion belongs
      const garbage = await errorBody(app, key, '/v1/chat/completions', { model: 'solo', messages: [{ role: 'user', content: 'Hi [garbage]' }] });
      expect(garbage.status).toBe(502);
      expect(garbage.body).toMatchObject({
        error: true,
        code: 502,
        reason: 'upstream_failed',
        message: 'The AI provider sent an answer this server cannot read',
      });
      expect(garbage.body.message).not.toContain('garbage');

      backup.failWith('hang');
      const started = Date.now();
      const hung = await errorBody(app, key, '/v1/chat/completions', { model: 'solo', messages: [{ role: 'user', content: 'Hi [hang]' }] });
      expect(hung.status).toBe(504);
      expect(hung.body).toMatchObject({ code: 504, reason: 'timeout', message: 'The AI provider did not finish within 3000 ms' });
      expect(Date.now() - started).toBeLessThan(3000 + 3000);
      const err = await raised(openai(app, key).chat.completions.create({ model: 'solo', messages: [{ role: 'user', content: 'Hi [hang-client]' }] }));
      expect(err).toBeInstanceOf(OpenAI.InternalServerError);
      expect(err.status).toBe(504);

      expect(await app.query(`SELECT * FROM quota_reservations WHERE account_id = $1`, [accountId])).toEqual([]);
      const rows = await app.query(`SELECT outcome, status_code, total_tokens FROM ai_usage WHERE account_id = $1 ORDER BY created_at DESC LIMIT 3`, [
        accountId,
      ]);
      expect(rows).toEqual([
        { outcome: 'timeout', status_code: 504, total_tokens: 0 },
        { outcome: 'timeout', status_code: 504, total_tokens: 0 },
        { outcome: 'upstream_failed', status_code: 502, total_tokens: 0 },
      ]);
    });

    it('documents the three routes in the OpenAPI document', async () => {
      const doc = (await app.http().get('/docs/openapi.json').expect(200)).body;
      const chat = doc.paths['/v1/chat/completions'].post;
      expect(chat.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ChatCompletionRequestDto');
      expect(chat.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/ChatCompletionDto');
      expect(chat.responses['200'].content['text/event-stream'].example).toContain('chat.completion.chunk');
      for (const status of ['400', '401', '402', '403', '429', '502', '503', '504']) {
        expect(chat.responses[status].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
      }
      const request = doc.components.schemas.ChatCompletionRequestDto;
      expect(request.required.sort()).toEqual(['messages', 'model']);
      expect(request.properties.temperature).toMatchObject({ minimum: 0, maximum: 2 });
      expect(request.properties.tools.description).toContain('Passed on as sent');
      expect(doc.paths['/v1/models'].get.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/ModelListDto');
      expect(doc.paths['/v1/embeddings'].post.responses['200'].content['application/json'].schema.$ref).toBe('#/components/schemas/EmbeddingsDto');
      expect(doc.components.schemas.EmbeddingsRequestDto.properties.encoding_format.enum).toEqual(['float', 'base64']);
    });
  });

  describe('with the local GGUF model', () => {
    let app: TestApp;
    let key: string;
    let accountId: string;

    beforeAll(async () => {
      app = await startTestApp({ env: { ...LIMITS, AI_PROVIDER: 'local', AI_MODEL_PATH: TEST_MODEL_PATH, AI_THREADS: '1' } });
      ({ apiKey: key, accountId } = await createAccount(app));
    });
    afterAll(() => app?.close());

    it('chats through the chat template: real text, counted tokens, cut at max_tokens', async () => {
      const completion = await openai(app, key).chat.completions.create({
        model: 'stories260K',
        messages: [
          { role: 'system', content: 'You tell stories.' },
          { role: 'user', content: 'Tell me about a cat' },
        ],
        max_tokens: 12,
        temperature: 0,
      });
      expect(completion).toMatchObject({
        object: 'chat.completion',
        model: 'stories260K',
        choices: [{ index: 0, message: { role: 'assistant' }, finish_reason: 'length' }],
      });
      expect(completion.choices[0].message.content!.trim()).toMatch(/[a-z]{2,}/);
      expect(completion.usage).toEqual({ prompt_tokens: expect.any(Number), completion_tokens: 12, total_tokens: completion.usage!.prompt_tokens + 12 });
      // The system message and the template are in the prompt: more tokens than the user's words alone.
      expect(completion.usage!.prompt_tokens).toBeGreaterThan(20);
      expect((await app.query(`SELECT kind, provider, model, completion_tokens FROM ai_usage WHERE account_id = $1`, [accountId]))[0]).toEqual({
        kind: 'chat',
        provider: 'local',
        model: 'stories260K',
        completion_tokens: 12,
      });
      // Greedy sampling: the same history, the same answer.
      const again = await openai(app, key).chat.completions.create({
        model: 'stories260K',
        messages: [
          { role: 'system', content: 'You tell stories.' },
          { role: 'user', content: 'Tell me about a cat' },
        ],
        max_tokens: 12,
        temperature: 0,
      });
      expect(again.choices[0].message.content).toBe(completion.choices[0].message.content);
    });

    it('streams chunks with the usage at the end', async () => {
      const chunks: OpenAI.ChatCompletionChunk[] = [];
      for await (const chunk of await openai(app, key).chat.completions.create({
        model: 'stories260K',
        messages: [{ role: 'user', content: 'Once upon a time' }],
        max_tokens: 10,
        stream: true,
        stream_options: { include_usage: true },
      }))
        chunks.push(chunk);
      expect(chunks[0].choices[0].delta.role).toBe('assistant');
      expect(chunks.filter((c) => c.choices[0]?.delta?.content).length).toBeGreaterThanOrEqual(3);
      expect(chunks.at(-2)!.choices[0].finish_reason).toBe('length');
      expect(chunks.at(-1)!.usage).toMatchObject({ completion_tokens: 10 });
    });

    it('makes embeddings with its embedding context', async () => {
      const res = await openai(app, key).embeddings.create({ model: 'stories260K', input: ['a cat', 'a dog'] });
      expect(res.data.map((d) => d.index)).toEqual([0, 1]);
      expect(res.data[0].embedding.length).toBeGreaterThan(8);
      expect(res.data[0].embedding).not.toEqual(res.data[1].embedding);
      expect(res.usage.prompt_tokens).toBeGreaterThanOrEqual(4);
      const same = await openai(app, key).embeddings.create({ model: 'stories260K', input: 'a cat' });
      expect(same.data[0].embedding.map((n) => n.toFixed(4))).toEqual(res.data[0].embedding.map((n) => n.toFixed(4)));
    });

    it.each([
      ['tools', { tools: [{ type: 'function', function: { name: 'f' } }] }, 'tools is not supported by the model stories260K (a local model)'],
      ['n: 2', { n: 2 }, 'n is not supported by the model stories260K'],
      [
        'an image part',
        { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] }] },
        'messages.0.content.0 is a image_url part, which the model stories260K (a local model) cannot read',
      ],
      ['response_format json_object', { response_format: { type: 'json_object' } }, 'response_format is not supported'],
    ])('refuses %s with 400 naming the field', async (_label, change, message) => {
      const res = await errorBody(app, key, '/v1/chat/completions', { model: 'stories260K', messages: [{ role: 'user', content: 'hi' }], ...change });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: true, code: 400, reason: 'invalid_parameter', message: expect.stringContaining(message) });
    });

    it("takes the defaults OpenAI's clients send (n: 1, zero penalties, empty tools)", async () => {
      const completion = await openai(app, key).chat.completions.create({
        model: 'stories260K',
        messages: [{ role: 'user', content: 'hi' }],
        max_tokens: 2,
        n: 1,
        frequency_penalty: 0,
        presence_penalty: 0,
        logprobs: false,
      });
      expect(completion.usage!.completion_tokens).toBe(2);
    });
  });

  describe('privacy, in a real server process logging at debug level', () => {
    let primary: OpenAiStub;
    let backup: OpenAiStub;
    let env: Record<string, string>;
    let dir: string;

    beforeAll(async () => {
      [primary, backup] = await Promise.all([startOpenAiStub(), startOpenAiStub()]);
      env = await freshEnvironment();
      dir = mkdtempSync(join(tmpdir(), 'ai-providers-'));
    });
    afterAll(async () => {
      await Promise.all([primary?.close(), backup?.close()]);
      if (env) await dropFreshResources(env);
      rmSync(dir, { recursive: true, force: true });
    });

    it('logs and stores neither prompts nor answers, plain, streamed, failing or falling back, and masks PII for remote targets', async () => {
      const file = join(dir, 'providers.json');
      writeFileSync(
        file,
        JSON.stringify({
          providers: { primary: { type: 'openai', baseUrl: primary.url }, backup: { type: 'openai', baseUrl: backup.url } },
          models: { fast: ['primary/gpt-a', 'backup/gpt-b'], solo: ['backup/gpt-b'], embed: ['backup/emb-1'] },
        }),
      );
      const child = await startChildServer({ ...env, ...LIMITS, AI_PROVIDERS_FILE: file, AI_REDACT_PII: 'true' }, undefined, 'debug');
      const secret = 'Write to alice@example.com or call +1 (555) 123-4567 about Quibbleflux';
      let client: OpenAI;
      try {
        const { apiKey } = await createAccountOn(child.url);
        client = new OpenAI({ baseURL: `${child.url}/v1`, apiKey, maxRetries: 0 });
        const ask = (model: string, content: string) =>
          client.chat.completions.create({ model, messages: [{ role: 'user', content }], user: 'bob@example.com' });

        primary.failWith({ status: 500 }); // its error body quotes the prompt, as some servers do
        expect((await ask('fast', secret)).choices[0].message.content).toBe(STUB_TEXT); // after a fallback
        primary.failWith(undefined);
        let streamed = '';
        for await (const chunk of await client.chat.completions.create({ model: 'solo', messages: [{ role: 'user', content: secret }], stream: true }))
          streamed += chunk.choices[0]?.delta?.content ?? '';
        expect(streamed).toBe(STUB_TEXT);
        expect(await raised(ask('solo', `${secret} [status:500]`))).toBeInstanceOf(OpenAI.InternalServerError);
        await expect(
          (async () => {
            for await (const _chunk of await client.chat.completions.create({
              model: 'solo',
              messages: [{ role: 'user', content: `${secret} [stream-break]` }],
              stream: true,
            }));
          })(),
        ).rejects.toBeInstanceOf(OpenAI.APIError);
        const bad = await fetch(`${child.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'solo', messages: [{ role: 'user', content: secret, nmae: secret }] }),
        });
        expect(bad.status).toBe(400);
        expect(await bad.text()).not.toContain('Quibbleflux');
        expect((await client.embeddings.create({ model: 'embed', input: [secret] })).data).toHaveLength(1);

        // What left for the remote providers was masked: messages, the end user's id, embedding inputs.
        const sent = [...primary.requestsWith('Quibbleflux'), ...backup.requestsWith('Quibbleflux')];
        expect(sent).toHaveLength(6); // the 5xx of a single target is tried twice
        for (const request of sent) {
          expect(JSON.stringify(request.body)).toContain('Write to [email] or call [phone] about Quibbleflux');
          expect(JSON.stringify(request.body)).not.toMatch(/alice|555|bob@/);
        }
        expect(backup.embeddingRequests.map((r) => r.body.input)).toEqual([['Write to [email] or call [phone] about Quibbleflux']]);
      } finally {
        await child.stop();
      }
      const log = child.output();
      expect(log).toMatch(/"level":20/); // debug lines were written...
      expect(log).toMatch(/"url":"\/v1\/chat\/completions"/);
      expect(log).toMatch(/"url":"\/v1\/embeddings"/);
      expect(log).toMatch(/"statusCode":502/);
      // ...and the fallback, without what was asked.
      const fallback = log.split('\n').find((line) => line.includes('trying the next'));
      expect(JSON.parse(fallback!)).toMatchObject({ model: 'fast', from: 'primary/gpt-a', to: 'backup/gpt-b', reason: 'upstream_failed', upstreamStatus: 500 });
      for (const text of ['alice@example.com', 'Quibbleflux', '(555) 123-4567', 'bob@example.com', STUB_TEXT, 'stub says']) expect(log).not.toContain(text);

      const rows = await everyRowOf(env);
      expect(rows).toContain('gen_');
      expect(rows).toContain('"kind":"chat"');
      for (const text of ['alice', 'Quibbleflux', '555) 123', 'bob@', STUB_TEXT]) expect(rows).not.toContain(text);
    });
  });
});

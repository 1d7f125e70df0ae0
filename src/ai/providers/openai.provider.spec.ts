import { AiError, AiErrorCode, asAiError } from '../ai.errors.js';
import { StreamEvent } from './ai-provider.js';
import { OpenAiProvider, retryAfterSeconds, toFinishReason, upstreamStatusError } from './openai.provider.js';

type Call = { url: string; init: RequestInit; body: Record<string, unknown> };

/** A fetch that answers from a script, one entry per call, and remembers what it was asked. */
function scriptedFetch(script: Array<Response | Error | (() => Response)>) {
  const calls: Call[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    calls.push({ url, init, body: JSON.parse(String(init.body)) });
    const next = script.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next;
  }) as unknown as typeof fetch;
  return { fetchFn, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const sse = (lines: string[]) => new Response(lines.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });

const completion = {
  id: 'chatcmpl-1',
  model: 'stub-model-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there.' }, finish_reason: 'length' }],
  usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
};

function provider(script: Array<Response | Error | (() => Response)>, apiKey: string | null = 'sk-upstream') {
  const { fetchFn, calls } = scriptedFetch(script);
  return {
    p: new OpenAiProvider({ baseUrl: 'http://upstream.test/v1/', apiKey: apiKey ?? undefined, fetch: fetchFn }),
    calls,
  };
}

const signal = () => new AbortController().signal;

async function errorOf(promise: Promise<unknown>): Promise<AiError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AiError) return err;
    throw err;
  }
  throw new Error('expected a failure');
}

describe('OpenAiProvider.generate', () => {
  it('sends a chat completion and maps text, model, finish reason and usage', async () => {
    const { p, calls } = provider([json(200, completion)]);
    const result = await p.generate({ model: 'stub-model', prompt: 'Say hello', maxTokens: 3, temperature: 0.5 }, signal());
    expect(result).toEqual({
      model: 'stub-model-2026',
      text: 'Hello there.',
      finishReason: 'length',
      usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 },
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('http://upstream.test/v1/chat/completions');
    expect(calls[0].body).toEqual({ model: 'stub-model', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 3, temperature: 0.5 });
    expect((calls[0].init.headers as Record<string, string>).authorization).toBe('Bearer sk-upstream');
  });

  it('leaves temperature and authorization out when there are none', async () => {
    const { p, calls } = provider([json(200, { ...completion, usage: undefined, model: undefined })], null);
    const result = await p.generate({ model: 'stub-model', prompt: 'x', maxTokens: 5 }, signal());
    expect(calls[0].body).not.toHaveProperty('temperature');
    expect(calls[0].init.headers).not.toHaveProperty('authorization');
    expect(result.model).toBe('stub-model');
    expect(result.usage).toEqual({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  });

  it.each([
    [401, AiErrorCode.UpstreamAuth, 502],
    [403, AiErrorCode.UpstreamAuth, 502],
    [429, AiErrorCode.UpstreamRateLimited, 429],
    [400, AiErrorCode.UpstreamFailed, 502],
    [404, AiErrorCode.UpstreamFailed, 502],
  ])("maps upstream %i to %s (HTTP %i), once (retries and fallbacks are the model router's)", async (status, code, http) => {
    const { p, calls } = provider([json(status, { error: { message: 'prompt was: secret stuff' } }), json(200, completion)]);
    const error = await errorOf(p.generate({ model: 'stub-model', prompt: 'secret stuff', maxTokens: 3 }, signal()));
    expect(error.reason).toBe(code);
    expect(error.status).toBe(http);
    expect(error.message).not.toContain('secret');
    expect(calls).toHaveLength(1);
  });

  it('reports an answer it cannot read as a 502', async () => {
    const { p } = provider([
      new Response('<html>oops</html>', { status: 200 }),
      json(200, { choices: [] }),
      json(200, { choices: [{ message: { role: 'assistant', content: null } }] }),
    ]);
    const ask = () => errorOf(p.generate({ model: 'stub-model', prompt: 'x', maxTokens: 3 }, signal()));
    expect(await ask()).toMatchObject({ reason: AiErrorCode.UpstreamFailed, message: 'The AI provider sent an answer this server cannot read' });
    expect(await ask()).toMatchObject({ reason: AiErrorCode.UpstreamFailed, message: 'The AI provider sent an answer this server cannot read' });
    expect(await ask()).toMatchObject({ reason: AiErrorCode.UpstreamFailed, message: 'The AI provider sent an answer without text' });
  });
});

describe('OpenAiProvider.stream', () => {
  async function events(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
    const out: StreamEvent[] = [];
    for await (const e of stream) out.push(e);
    return out;
  }

  const chunk = (content: string | null, finish: string | null = null) =>
    `data: ${JSON.stringify({ model: 'stub', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;

  it('asks for usage in the stream and yields text chunks, then finish reason and usage', async () => {
    const { p, calls } = provider([
      sse([
        chunk(''),
        chunk('Once'),
        ': keep-alive\n\n',
        chunk(' upon'),
        chunk(null, 'stop'),
        `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } })}\n\n`,
        'data: [DONE]\n\n',
      ]),
    ]);
    const stream = await p.stream({ model: 'stub-model', prompt: 'x', maxTokens: 8 }, signal());
    expect(calls[0].body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 8 });
    expect(await events(stream.events)).toEqual([
      { type: 'text', text: 'Once' },
      { type: 'text', text: ' upon' },
      { type: 'end', finishReason: 'stop', usage: { promptTokens: 4, completionTokens: 2, totalTokens: 6 }, model: 'stub' },
    ]);
  });

  it('rejects before streaming when the upstream refuses, and never retries', async () => {
    const { p, calls } = provider([json(500, {}), json(200, completion)]);
    expect((await errorOf(p.stream({ model: 'stub-model', prompt: 'x', maxTokens: 8 }, signal()))).reason).toBe(AiErrorCode.UpstreamFailed);
    expect(calls).toHaveLength(1);
  });

  it('fails a stream that ends before a finish reason or [DONE]', async () => {
    const { p } = provider([sse([chunk('Once')])]);
    const stream = await p.stream({ model: 'stub-model', prompt: 'x', maxTokens: 8 }, signal());
    await expect(events(stream.events)).rejects.toMatchObject({ reason: AiErrorCode.UpstreamFailed, message: 'The AI provider ended the stream too early' });
  });

  it('fails on an error object or unreadable data in the stream', async () => {
    const { p } = provider([sse([chunk('a'), 'data: {"error":{"message":"overloaded"}}\n\n']), sse(['data: {not json\n\n'])]);
    await expect(events((await p.stream({ model: 'stub-model', prompt: 'x', maxTokens: 8 }, signal())).events)).rejects.toMatchObject({
      reason: AiErrorCode.UpstreamFailed,
    });
    await expect(events((await p.stream({ model: 'stub-model', prompt: 'x', maxTokens: 8 }, signal())).events)).rejects.toMatchObject({
      message: 'The AI provider sent a stream this server cannot read',
    });
  });
});

describe('upstream error mapping', () => {
  const headers = (h: Record<string, string> = {}) => ({ header: (name: string) => h[name] ?? null });

  it('maps statuses to our codes, never blaming the client for the upstream credentials', () => {
    expect(upstreamStatusError({ status: 401, ...headers() }).reason).toBe(AiErrorCode.UpstreamAuth);
    expect(upstreamStatusError({ status: 401, ...headers() }).message).toMatch(/AI_API_KEY/);
    expect(upstreamStatusError({ status: 503, ...headers() })).toMatchObject({ reason: AiErrorCode.UpstreamFailed, retryable: true });
    expect(upstreamStatusError({ status: 422, ...headers() })).toMatchObject({ reason: AiErrorCode.UpstreamFailed, retryable: false });
    expect(upstreamStatusError({ status: 429, ...headers({ 'retry-after': '12' }) }).details.retryAfterSeconds).toBe(12);
  });

  it('turns every AiError into the right HTTP status, with Retry-After on a 429', () => {
    const cases: Array<[AiErrorCode, number]> = [
      [AiErrorCode.NotConfigured, 503],
      [AiErrorCode.ModelUnavailable, 503],
      [AiErrorCode.UpstreamAuth, 502],
      [AiErrorCode.UpstreamRateLimited, 429],
      [AiErrorCode.UpstreamFailed, 502],
      [AiErrorCode.UpstreamUnreachable, 502],
      [AiErrorCode.Timeout, 504],
    ];
    for (const [code, status] of cases) {
      expect([code, new AiError(code, 'm').status]).toEqual([code, status]);
    }
    expect(new AiError(AiErrorCode.UpstreamRateLimited, 'm', { retryAfterSeconds: 7 }).extras.headers).toEqual({ 'retry-after': '7' });
    expect(new AiError(AiErrorCode.UpstreamRateLimited, 'm').extras.headers).toEqual({ 'retry-after': '60' });
  });

  it('hides unknown errors behind a generic 502', () => {
    const error = asAiError(new Error('SELECT prompt FROM secrets'));
    expect(error).toMatchObject({ reason: AiErrorCode.UpstreamFailed, message: 'The AI provider failed' });
  });

  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterSeconds('30', now)).toBe(30);
    expect(retryAfterSeconds('Sun, 22 Nov 2026 10:00:45 GMT', now)).toBe(45);
    expect(retryAfterSeconds('0', now)).toBe(1);
    expect(retryAfterSeconds('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(1);
    expect(retryAfterSeconds('soon', now)).toBeUndefined();
    expect(retryAfterSeconds(null, now)).toBeUndefined();
  });

  it('maps finish reasons to stop or length', () => {
    expect(toFinishReason('length')).toBe('length');
    expect(['stop', 'content_filter', 'tool_calls', null].map(toFinishReason)).toEqual(['stop', 'stop', 'stop', 'stop']);
  });
});

describe('OpenAiProvider.chat, chatStream and embed', () => {
  it('passes the request on as written and answers the completion as the upstream sent it', async () => {
    const toolAnswer = {
      ...completion,
      choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function' }] }, finish_reason: 'tool_calls' }],
    };
    const { p, calls } = provider([json(200, toolAnswer)]);
    const request = {
      model: 'gpt-x',
      messages: [{ role: 'user' as const, content: 'Weather?' }],
      max_tokens: 20,
      tools: [{ type: 'function' as const, function: { name: 'weather', parameters: { type: 'object' } } }],
      n: 2,
    };
    await expect(p.chat(request, signal())).resolves.toEqual(toolAnswer);
    expect(calls[0].body).toEqual(request);
    expect(p.refusedFields()).toEqual([]);
  });

  it('streams the chunks as they come, asking for usage', async () => {
    const chunks = [
      { choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] },
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
      { choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
    ];
    const { p, calls } = provider([sse([...chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`), 'data: [DONE]\n\n'])]);
    const seen: unknown[] = [];
    for await (const chunk of await p.chatStream({ model: 'gpt-x', messages: [{ role: 'user', content: 'x' }] }, signal())) seen.push(chunk);
    expect(seen).toEqual(chunks);
    expect(calls[0].body).toMatchObject({ model: 'gpt-x', stream: true, stream_options: { include_usage: true } });
  });

  it('asks for float embeddings whatever the client wants, and refuses an answer that does not match the inputs', async () => {
    const answer = {
      object: 'list',
      model: 'e',
      data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
      usage: { prompt_tokens: 2, total_tokens: 2 },
    };
    const { p, calls } = provider([json(200, answer), json(200, answer)]);
    await expect(p.embed({ model: 'e', input: ['hello'] }, signal())).resolves.toEqual(answer);
    expect(calls[0].url).toBe('http://upstream.test/v1/embeddings');
    expect(calls[0].body).toEqual({ model: 'e', input: ['hello'], encoding_format: 'float' });
    expect(await errorOf(p.embed({ model: 'e', input: ['a', 'b'] }, signal()))).toMatchObject({ reason: AiErrorCode.UpstreamFailed });
  });
});

describe('AiError.budgetExhausted', () => {
  const now = Date.parse('2026-11-28T22:00:00Z');
  const resetsAt = new Date('2026-11-29T00:00:00Z');

  it('says the budget is used up, with Retry-After to the period end and x-should-retry: false', () => {
    const error = AiError.budgetExhausted({ whose: 'API key', period: 'day', limit: 1000, used: 1000, held: 0, wanted: 300, resetsAt, now });
    expect(error).toMatchObject({ reason: AiErrorCode.BudgetExhausted, status: 429 });
    expect(error.message).toBe('The AI budget of this API key (1000 tokens a day) is used up; it renews at 2026-11-29T00:00:00Z.');
    expect(error.extras.headers).toEqual({ 'retry-after': '7200', 'x-should-retry': 'false' });
  });

  it('says what is left when some is, but less than the call may use', () => {
    const error = AiError.budgetExhausted({ whose: 'service account', period: 'month', limit: 1000, used: 800, held: 0, wanted: 300, resetsAt, now });
    expect(error.message).toBe(
      'The AI budget of this service account (1000 tokens a month) has 200 left, less than the 300 this request may use; it renews at 2026-11-29T00:00:00Z.',
    );
  });

  it('asks for a retry in a second when only calls in flight hold the rest', () => {
    const error = AiError.budgetExhausted({ whose: 'API key', period: 'day', limit: 1000, used: 100, held: 800, wanted: 300, resetsAt, now });
    expect(error.message).toBe(
      'The AI budget of this API key (1000 tokens a day) is held by its calls in flight (800 tokens); this request may use 300. Retry in a moment.',
    );
    expect(error.extras.headers).toEqual({ 'retry-after': '1' });
  });
});

import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  body: {
    model: string;
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
    max_tokens?: number;
    temperature?: number;
    stream?: boolean;
    stream_options?: unknown;
    [field: string]: unknown;
  };
  headers: IncomingMessage['headers'];
  /** Resolves when the connection of this request closed (finished, or given up by the caller). */
  closed: Promise<void>;
  /** True once the caller went away before the answer was complete. */
  abandoned: () => boolean;
}

/**
 * What the stub does with every chat request, whatever its prompt: answer an error status (429 with
 * `Retry-After: 7`), never answer (`hang`), close the connection (`drop`), or in a stream send the
 * role chunk and one word, then break off (`stream-break`).
 */
export type StubFailure = { status: number } | 'hang' | 'drop' | 'stream-break';

export interface StubEmbeddingRequest {
  body: { model: string; input: string[]; encoding_format?: string; dimensions?: number; user?: string };
  headers: IncomingMessage['headers'];
}

export interface OpenAiStub {
  /** Base URL to put in AI_BASE_URL (ends in /v1). */
  url: string;
  requests: StubRequest[];
  embeddingRequests: StubEmbeddingRequest[];
  /** Every chat request fails so from now on (undefined: answers again). */
  failWith(failure: StubFailure | undefined): void;
  /** Requests whose prompt contains `marker`. */
  requestsWith(marker: string): StubRequest[];
  /** Holds every answer (requests are still received and listed) until the returned function is called. */
  hold(): () => void;
  close(): Promise<void>;
}

export const STUB_TEXT_CHUNKS = ['The', ' stub', ' says', ' hello', '.'];

/**
 * An OpenAI-compatible `/v1/chat/completions` server for tests. What it does depends on markers in
 * the prompt: `[status:NNN]` answers NNN (with the prompt quoted in the error body, like some
 * servers do), `[status:NNN-once]` only the first time, `[hang]` never answers, `[drop]` closes the
 * connection, and in streams `[stream-hang]` stops after two chunks, `[stream-break]` closes after one.
 * Otherwise it answers `The stub says hello.` (5 tokens), cut at max_tokens.
 */
export async function startOpenAiStub(): Promise<OpenAiStub> {
  const requests: StubRequest[] = [];
  const embeddingRequests: StubEmbeddingRequest[] = [];
  const seen = new Map<string, number>();
  let held: Promise<void> | undefined;
  let failure: StubFailure | undefined;

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      let finished = false;
      res.on('finish', () => (finished = true));
      const closed = new Promise<void>((resolve) => res.on('close', resolve));
      const body = JSON.parse(raw) as StubRequest['body'];
      if (req.url === '/v1/embeddings' && req.method === 'POST') return embed(res, body as unknown as StubEmbeddingRequest['body'], req.headers);
      requests.push({ body, headers: req.headers, closed, abandoned: () => !finished && res.destroyed });
      if (held) void held.then(() => answer(req, res, body));
      else answer(req, res, body);
    });
  });

  function answer(req: IncomingMessage, res: ServerResponse, body: StubRequest['body']): void {
    if (req.url !== '/v1/chat/completions' || req.method !== 'POST') return send(res, 404, { error: { message: 'not found' } });
    const prompt = promptOf(body);
    if (failure === 'hang') return;
    if (failure === 'drop') return void req.socket.destroy();
    if (failure && failure !== 'stream-break') {
      const headers: Record<string, string> = failure.status === 429 ? { 'retry-after': '7' } : {};
      return send(res, failure.status, { error: { message: `Upstream refused the prompt: ${prompt}`, type: 'stub_error' } }, headers);
    }
    const count = (seen.get(prompt) ?? 0) + 1;
    seen.set(prompt, count);

    const status = /\[status:(\d{3})(-once)?\]/.exec(prompt);
    if (status && (!status[2] || count === 1)) {
      const headers: Record<string, string> = status[1] === '429' ? { 'retry-after': '7' } : {};
      return send(res, Number(status[1]), { error: { message: `Upstream refused the prompt: ${prompt}`, type: 'stub_error' } }, headers);
    }
    if (prompt.includes('[hang]')) return; // never answers
    if (prompt.includes('[drop]')) return void req.socket.destroy();

    const maxTokens = body.max_tokens ?? 16;
    const chunks = STUB_TEXT_CHUNKS.slice(0, maxTokens);
    const finishReason = maxTokens < STUB_TEXT_CHUNKS.length ? 'length' : 'stop';
    const usage = { prompt_tokens: prompt.split(/\s+/).filter(Boolean).length, completion_tokens: chunks.length, total_tokens: 0 };
    usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
    if (!body.stream) {
      return send(res, 200, {
        id: 'chatcmpl-stub',
        object: 'chat.completion',
        model: `${body.model}-0613`,
        choices: [{ index: 0, message: { role: 'assistant', content: chunks.join('') }, finish_reason: finishReason }],
        usage,
      });
    }
    void streamAnswer(res, `${body.model}-0613`, prompt, chunks, finishReason, usage);
  }

  async function streamAnswer(res: ServerResponse, model: string, prompt: string, chunks: string[], finishReason: string, usage: object): Promise<void> {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (data: unknown) => res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
    const chunk = (delta: object, finish: string | null = null) =>
      event({ id: 'chatcmpl-stub', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta, finish_reason: finish }] });
    chunk({ role: 'assistant', content: '' });
    for (const [i, text] of chunks.entries()) {
      if (res.destroyed) return;
      if ((prompt.includes('[stream-break]') || failure === 'stream-break') && i === 1) return void res.destroy();
      if (prompt.includes('[stream-hang]') && i === 2) return; // keeps the connection open, silent
      chunk({ content: text });
      await new Promise((r) => setTimeout(r, 5));
    }
    chunk({}, finishReason);
    event({ id: 'chatcmpl-stub', object: 'chat.completion.chunk', model, choices: [], usage });
    event('[DONE]');
    res.end();
  }

  /** Embeddings: 8 numbers per input, made from its characters (the same text, the same vector); a token per word. */
  function embed(res: ServerResponse, body: StubEmbeddingRequest['body'], headers: IncomingMessage['headers']): void {
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    embeddingRequests.push({ body: { ...body, input }, headers });
    if (failure && failure !== 'stream-break')
      return failure === 'hang' ? undefined : send(res, failure === 'drop' ? 500 : failure.status, { error: { message: 'no' } });
    const vector = (text: string) => Array.from({ length: body.dimensions ?? 8 }, (_, i) => ((text.charCodeAt(i % text.length) * (i + 1)) % 97) / 97);
    const tokens = input.reduce((sum, text) => sum + text.split(/\s+/).filter(Boolean).length, 0);
    send(res, 200, {
      object: 'list',
      model: `${body.model}-v2`,
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: vector(text) })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    embeddingRequests,
    failWith: (next) => (failure = next),
    requestsWith: (marker) => requests.filter((r) => promptOf(r.body).includes(marker)),
    hold: () => {
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Every text of a chat request's messages, string contents and text parts, one message a line. */
function promptOf(body: StubRequest['body']): string {
  return body.messages.map((m) => (typeof m.content === 'string' ? m.content : m.content.map((part) => part.text ?? '').join(''))).join('\n');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

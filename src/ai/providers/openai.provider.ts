import { AiError, AiErrorCode } from '../ai.errors.js';
import { decodeUtf8, parseSse } from '../sse.js';
import {
  AiProvider,
  type ChatCompletion,
  type ChatCompletionChunk,
  ChatRequest,
  type CreateEmbeddingResponse,
  EmbeddingRequest,
  FinishReason,
  fromOpenAiUsage,
  GenerationRequest,
  GenerationResult,
  GenerationStream,
  StreamEvent,
  TokenUsage,
  toFinishReason,
  totalUsage,
} from './ai-provider.js';
import { fetchTransport, httpTransport, readText, type UpstreamResponse, type UpstreamTransport } from './upstream-http.js';

export interface OpenAiProviderOptions {
  /** Its name in AI_PROVIDERS_FILE (`openai` with the single-provider settings). */
  name?: string;
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM) */
  baseUrl: string;
  apiKey?: string;
  /** Instead of node:http (unit specs). */
  fetch?: typeof fetch;
}

/**
 * Any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp server...) through Node's own fetch:
 * `/chat/completions` and `/embeddings`, the request passed on as the client wrote it. Upstream
 * bodies are read for the fields we need and never logged or echoed: an upstream error message may
 * quote the prompt. No retries here: the model's targets decide (src/ai/models/model-router.ts).
 */
export class OpenAiProvider implements AiProvider {
  readonly name: string;
  readonly kind = 'openai' as const;
  readonly remote = true;
  private readonly baseUrl: string;
  private readonly transport: UpstreamTransport;
  private readonly destroyTransport: () => void = () => undefined;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.name = options.name ?? 'openai';
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    if (options.fetch) this.transport = fetchTransport(options.fetch);
    else {
      const http = httpTransport();
      this.transport = http.post;
      this.destroyTransport = http.destroy;
    }
  }

  async generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationResult> {
    const completion = await this.chat(this.generationBody(request), signal);
    const choice = completion.choices[0];
    const text = choice?.message?.content;
    if (typeof text !== 'string') throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent an answer without text', { upstreamStatus: 200 });
    return {
      model: typeof completion.model === 'string' && completion.model ? completion.model : request.model,
      text,
      finishReason: toFinishReason(choice.finish_reason),
      usage: fromOpenAiUsage(completion.usage),
    };
  }

  async stream(request: GenerationRequest, signal: AbortSignal): Promise<GenerationStream> {
    const chunks = await this.chatStream(this.generationBody(request), signal);
    return { model: request.model, events: textEvents(chunks) };
  }

  refusedFields(): string[] {
    return [];
  }

  async chat(request: ChatRequest, signal: AbortSignal): Promise<ChatCompletion> {
    const response = await this.post('/chat/completions', request, signal);
    const completion = await this.readJson(response, signal);
    if (!isChatCompletion(completion)) {
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent an answer this server cannot read', { upstreamStatus: response.status });
    }
    return completion;
  }

  async chatStream(request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>> {
    // Usage always, for metering; the gateway drops it for a client that did not ask for it.
    const response = await this.post('/chat/completions', { ...request, stream: true, stream_options: { include_usage: true } }, signal);
    return this.chunks(response.body, signal);
  }

  async embed(request: EmbeddingRequest, signal: AbortSignal): Promise<CreateEmbeddingResponse> {
    // Floats from the upstream whatever the client asked for: not every compatible server writes base64.
    const response = await this.post('/embeddings', { ...request, encoding_format: 'float' }, signal);
    const body = await this.readJson(response, signal);
    if (!isEmbeddingResponse(body, request.input.length)) {
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent embeddings this server cannot read', { upstreamStatus: response.status });
    }
    return body;
  }

  private generationBody(request: GenerationRequest): ChatRequest {
    return {
      model: request.model,
      messages: [{ role: 'user', content: request.prompt }],
      max_tokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  async dispose(): Promise<void> {
    this.destroyTransport();
  }

  private async post(path: string, body: object, signal: AbortSignal): Promise<UpstreamResponse> {
    let response: UpstreamResponse;
    try {
      const headers = {
        'content-type': 'application/json',
        accept: 'stream' in body && body.stream ? 'text/event-stream' : 'application/json',
        ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
      };
      response = await this.transport(`${this.baseUrl}${path}`, JSON.stringify(body), headers, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new AiError(AiErrorCode.UpstreamUnreachable, 'The AI provider could not be reached');
    }
    if (response.status < 200 || response.status > 299) {
      response.discard();
      throw upstreamStatusError(response);
    }
    return response;
  }

  private async readJson(response: UpstreamResponse, signal: AbortSignal): Promise<unknown> {
    let text: string;
    try {
      text = await readText(response.body);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new AiError(AiErrorCode.UpstreamUnreachable, 'The connection to the AI provider broke during the answer');
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent an answer this server cannot read', { upstreamStatus: response.status });
    }
  }

  private async *chunks(body: AsyncIterable<Uint8Array>, signal: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
    try {
      yield* readChunks(body);
    } catch (err) {
      if (err instanceof AiError || signal.aborted) throw err;
      // The body broke off (connection reset, upstream crashed) after the stream had started.
      throw new AiError(AiErrorCode.UpstreamUnreachable, 'The connection to the AI provider broke during the generation');
    }
  }
}

/** The chunks of an upstream's event stream, up to `[DONE]`; fails on an error, data it cannot read, or an end before the finish. */
async function* readChunks(body: AsyncIterable<Uint8Array>): AsyncGenerator<ChatCompletionChunk> {
  let finished = false;
  for await (const message of parseSse(decodeUtf8(body))) {
    if (message.data === '[DONE]') return;
    let chunk: unknown;
    try {
      chunk = JSON.parse(message.data);
    } catch {
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent a stream this server cannot read');
    }
    if (isObject(chunk) && chunk.error) throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider failed during the generation');
    if (!isObject(chunk) || !Array.isArray(chunk.choices) || !chunk.choices.every(isObject)) {
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent a stream this server cannot read');
    }
    if (chunk.choices.some((choice) => choice.finish_reason)) finished = true;
    yield chunk as unknown as ChatCompletionChunk;
  }
  // Some servers end without [DONE]; a stream that never finished its answer broke off.
  if (!finished) throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider ended the stream too early');
}

/** An OpenAI stream as `/v1/ai/generate`'s events: text, then one end with the finish reason and usage. */
export async function* textEvents(chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<StreamEvent> {
  let finishReason: FinishReason | undefined;
  let usage: TokenUsage | undefined;
  let model: string | undefined;
  for await (const chunk of chunks) {
    if (typeof chunk.model === 'string' && chunk.model) model = chunk.model;
    const choice = chunk.choices[0];
    const text = choice?.delta?.content;
    if (typeof text === 'string' && text !== '') yield { type: 'text', text };
    if (choice?.finish_reason) finishReason = toFinishReason(choice.finish_reason);
    // With stream_options.include_usage the usage comes in a last chunk whose choices are empty.
    if (chunk.usage) usage = fromOpenAiUsage(chunk.usage);
  }
  yield { type: 'end', finishReason: finishReason ?? 'stop', usage: usage ?? totalUsage(0, 0), ...(model ? { model } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isChatCompletion(value: unknown): value is ChatCompletion {
  return isObject(value) && Array.isArray(value.choices) && value.choices.length > 0 && value.choices.every((c) => isObject(c) && isObject(c.message));
}

function isEmbeddingResponse(value: unknown, inputs: number): value is CreateEmbeddingResponse {
  return (
    isObject(value) &&
    Array.isArray(value.data) &&
    value.data.length === inputs &&
    value.data.every((d) => isObject(d) && Array.isArray(d.embedding) && d.embedding.every((n) => typeof n === 'number'))
  );
}

/** The upstream answered with an error status: whose fault is it, and what do we tell our client. */
export function upstreamStatusError(response: Pick<UpstreamResponse, 'status' | 'header'>): AiError {
  const { status } = response;
  if (status === 401 || status === 403) {
    return new AiError(AiErrorCode.UpstreamAuth, `The AI provider refused this server's credentials (HTTP ${status}); the operator must check AI_API_KEY`, {
      upstreamStatus: status,
    });
  }
  if (status === 429) {
    return new AiError(AiErrorCode.UpstreamRateLimited, 'The AI provider is rate limiting this server. Retry later.', {
      upstreamStatus: status,
      retryAfterSeconds: retryAfterSeconds(response.header('retry-after')),
    });
  }
  if (status >= 500) return new AiError(AiErrorCode.UpstreamFailed, `The AI provider failed (HTTP ${status})`, { upstreamStatus: status });
  // Another 4xx: the request was refused (unknown model, prompt too long for it, a field it does not take...).
  return new AiError(AiErrorCode.UpstreamFailed, `The AI provider refused the request (HTTP ${status})`, { upstreamStatus: status });
}

/** The upstream's Retry-After in seconds, 1 to 86 400 (delta-seconds or an HTTP date): never 0, so that clients retrying on it cannot spin. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - now) / 1000);
  return Number.isNaN(seconds) ? undefined : Math.min(Math.max(1, seconds), 86_400);
}

export { toFinishReason };

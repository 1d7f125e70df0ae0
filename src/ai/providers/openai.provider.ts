import { AiError, AiErrorCode } from '../ai.errors.js';
import { decodeUtf8, parseSse } from '../sse.js';
import { AiProvider, FinishReason, GenerationRequest, GenerationResult, GenerationStream, StreamEvent, TokenUsage, totalUsage } from './ai-provider.js';

export interface OpenAiProviderOptions {
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1 (Ollama), http://127.0.0.1:8000/v1 (vLLM) */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Base of the pause before the one retry (jittered ±50 %). */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}

interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
}

interface ChatCompletion {
  model?: string;
  choices?: Array<{ message?: { content?: string | null }; delta?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: ChatUsage | null;
  error?: unknown;
}

/**
 * Any OpenAI-compatible `/chat/completions` server (OpenAI, vLLM, Ollama, llama.cpp server...)
 * through Node's own fetch. Upstream bodies are read for the fields we need and never logged or
 * echoed: an upstream error message may quote the prompt.
 */
export class OpenAiProvider implements AiProvider {
  readonly name = 'openai' as const;
  readonly remote = true;
  readonly defaultModel: string;
  private readonly url: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: OpenAiProviderOptions) {
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.defaultModel = options.model;
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  async generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationResult> {
    try {
      return await this.generateOnce(request, signal);
    } catch (err) {
      // One more try for failures that are likely to pass (5xx, connection); never for 4xx or timeouts.
      if (!(err instanceof AiError) || !err.retryable || signal.aborted) throw err;
      await sleep((this.options.retryDelayMs ?? 500) * (0.5 + Math.random()), signal);
      return await this.generateOnce(request, signal);
    }
  }

  async stream(request: GenerationRequest, signal: AbortSignal): Promise<GenerationStream> {
    // No retry: once a client sees a stream start, a second attempt could only repeat or contradict it.
    const response = await this.post({ ...this.body(request), stream: true, stream_options: { include_usage: true } }, signal);
    if (!response.body) throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent an empty stream');
    return { model: this.defaultModel, events: this.events(response.body, signal) };
  }

  private async generateOnce(request: GenerationRequest, signal: AbortSignal): Promise<GenerationResult> {
    const response = await this.post(this.body(request), signal);
    let completion: ChatCompletion;
    try {
      completion = (await response.json()) as ChatCompletion;
    } catch (err) {
      if (signal.aborted) throw err;
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent an answer this server cannot read', { upstreamStatus: response.status });
    }
    const choice = completion?.choices?.[0];
    const text = choice?.message?.content;
    if (typeof text !== 'string') {
      throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent an answer without text', { upstreamStatus: response.status });
    }
    return {
      model: typeof completion.model === 'string' && completion.model ? completion.model : this.defaultModel,
      text,
      finishReason: toFinishReason(choice?.finish_reason),
      usage: toUsage(completion.usage),
    };
  }

  private body(request: GenerationRequest): Record<string, unknown> {
    return {
      model: this.options.model,
      messages: [{ role: 'user', content: request.prompt }],
      max_tokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
  }

  private async post(body: Record<string, unknown>, signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: body.stream ? 'text/event-stream' : 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (signal.aborted) throw err;
      throw new AiError(AiErrorCode.UpstreamUnreachable, 'The AI provider could not be reached');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw upstreamStatusError(response);
    }
    return response;
  }

  private async *events(body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<StreamEvent> {
    try {
      yield* this.readEvents(body);
    } catch (err) {
      if (err instanceof AiError || signal.aborted) throw err;
      // The body broke off (connection reset, upstream crashed) after the stream had started.
      throw new AiError(AiErrorCode.UpstreamUnreachable, 'The connection to the AI provider broke during the generation');
    }
  }

  private async *readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
    let finishReason: FinishReason | undefined;
    let usage: TokenUsage | undefined;
    let model: string | undefined;
    let done = false;
    for await (const message of parseSse(decodeUtf8(body))) {
      if (message.data === '[DONE]') {
        done = true;
        break;
      }
      let chunk: ChatCompletion;
      try {
        chunk = JSON.parse(message.data) as ChatCompletion;
      } catch {
        throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider sent a stream this server cannot read');
      }
      if (chunk?.error) throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider failed during the generation');
      if (typeof chunk?.model === 'string' && chunk.model) model = chunk.model;
      const choice = chunk?.choices?.[0];
      const text = choice?.delta?.content;
      if (typeof text === 'string' && text !== '') yield { type: 'text', text };
      if (choice?.finish_reason) finishReason = toFinishReason(choice.finish_reason);
      // With stream_options.include_usage the usage comes in a last chunk whose choices are empty.
      if (chunk?.usage) usage = toUsage(chunk.usage);
    }
    if (!done && finishReason === undefined) throw new AiError(AiErrorCode.UpstreamFailed, 'The AI provider ended the stream too early');
    yield { type: 'end', finishReason: finishReason ?? 'stop', usage: usage ?? totalUsage(0, 0), ...(model ? { model } : {}) };
  }
}

/** The upstream answered with an error status: whose fault is it, and what do we tell our client. */
export function upstreamStatusError(response: Pick<Response, 'status' | 'headers'>): AiError {
  const { status } = response;
  if (status === 401 || status === 403) {
    return new AiError(AiErrorCode.UpstreamAuth, `The AI provider refused this server's credentials (HTTP ${status}); the operator must check AI_API_KEY`, {
      upstreamStatus: status,
    });
  }
  if (status === 429) {
    return new AiError(AiErrorCode.UpstreamRateLimited, 'The AI provider is rate limiting this server. Retry later.', {
      upstreamStatus: status,
      retryAfterSeconds: retryAfterSeconds(response.headers.get('retry-after')),
    });
  }
  if (status >= 500) return new AiError(AiErrorCode.UpstreamFailed, `The AI provider failed (HTTP ${status})`, { upstreamStatus: status });
  // Another 4xx: the request we built was refused (unknown model, prompt too long for it...).
  return new AiError(AiErrorCode.UpstreamFailed, `The AI provider refused the request (HTTP ${status})`, { upstreamStatus: status });
}

/** Retry-After as whole seconds (delta-seconds or an HTTP date), or undefined when absent or odd. */
/** The upstream's Retry-After in seconds, 1 to 86 400: never 0, so that clients retrying on it cannot spin. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - now) / 1000);
  return Number.isNaN(seconds) ? undefined : Math.min(Math.max(1, seconds), 86_400);
}

export function toFinishReason(reason: string | null | undefined): FinishReason {
  // OpenAI also has content_filter / tool_calls; for plain text the generation simply stopped.
  return reason === 'length' ? 'length' : 'stop';
}

function toUsage(usage: ChatUsage | null | undefined): TokenUsage {
  const prompt = Number.isFinite(usage?.prompt_tokens) ? Number(usage!.prompt_tokens) : 0;
  const completion = Number.isFinite(usage?.completion_tokens) ? Number(usage!.completion_tokens) : 0;
  const total = Number.isFinite(usage?.total_tokens) ? Number(usage!.total_tokens) : prompt + completion;
  return { promptTokens: prompt, completionTokens: completion, totalTokens: total };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

import { Logger } from '@nestjs/common';
import type { ChatHistoryItem, Llama, LlamaChat, LlamaCompletion, LlamaEmbeddingContext, LlamaModel, Token } from 'node-llama-cpp';
import { AiError, AiErrorCode } from '../ai.errors.js';
import { AsyncQueue, Mutex, untilAborted } from './concurrency.js';
import {
  AiProvider,
  type ChatCompletion,
  type ChatCompletionChunk,
  ChatRequest,
  type CreateEmbeddingResponse,
  EmbeddingRequest,
  FinishReason,
  GenerationRequest,
  GenerationResult,
  GenerationStream,
  StreamEvent,
  TokenUsage,
  totalUsage,
} from './ai-provider.js';
import { refusedByLocal, stopsOf, toChatHistory } from './local-chat.js';

export interface LocalProviderOptions {
  /** Its name in AI_PROVIDERS_FILE (`local` with the single-provider settings). */
  name?: string;
  modelPath: string;
  /** CPU threads for llama.cpp. The library's default (all cores) is ~500× slower on a busy 2-core machine. */
  threads: number;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  /** Plain text continuation (`/v1/ai/generate`) and chat share the one context sequence, taking turns. */
  completion: LlamaCompletion;
  chat: LlamaChat;
  contextSize: number;
}

/** The context of embeddings: the longest input they read, in tokens (the model's own if it was trained on less). */
const EMBEDDING_CONTEXT_TOKENS = 2048;

// llama.cpp's sampler treats temperature 0 as greedy; 0.8 is the library's suggestion.
const DEFAULT_TEMPERATURE = 0.8;

/**
 * A GGUF model run in-process by node-llama-cpp on the CPU. The library (and its native binary) is
 * imported only when this provider is used, and the model is loaded on the first request, once.
 * One context, one sequence: generations take turns (a Mutex), each bounded by the caller's signal.
 * A prompt is continued as text (LlamaCompletion: small GGUF models often have no chat template);
 * a chat goes through the model's chat template (LlamaChat's chat wrapper, resolved from the file,
 * a general one when it has none). Embeddings have a context of their own, made on first use.
 */
export class LocalProvider implements AiProvider {
  readonly name: string;
  readonly kind = 'local' as const;
  readonly remote = false;
  private readonly logger = new Logger('LocalAiProvider');
  private readonly turns = new Mutex();
  private readonly embeddingTurns = new Mutex();
  private loading?: Promise<Loaded>;
  private embeddings?: Promise<{ context: LlamaEmbeddingContext; limit: number }>;
  private disposed = false;

  constructor(private readonly options: LocalProviderOptions) {
    this.name = options.name ?? 'local';
  }

  async generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationResult> {
    const loaded = await untilAborted(this.load(), signal);
    const release = await this.turns.acquire(signal);
    try {
      let completionTokens = 0;
      const result = await loaded.completion.generateCompletionWithMeta(request.prompt, {
        maxTokens: request.maxTokens,
        temperature: request.temperature ?? DEFAULT_TEMPERATURE,
        signal,
        onToken: (tokens: Token[]) => (completionTokens += tokens.length),
      });
      return {
        model: request.model,
        text: result.response,
        finishReason: toFinishReason(result.metadata.stopReason),
        usage: totalUsage(promptTokens(loaded, request.prompt), completionTokens),
      };
    } finally {
      release();
    }
  }

  async stream(request: GenerationRequest, signal: AbortSignal): Promise<GenerationStream> {
    const loaded = await untilAborted(this.load(), signal);
    const events = await this.run<StreamEvent>(signal, (queue, generationSignal) => {
      let completionTokens = 0;
      return loaded.completion
        .generateCompletionWithMeta(request.prompt, {
          maxTokens: request.maxTokens,
          temperature: request.temperature ?? DEFAULT_TEMPERATURE,
          signal: generationSignal,
          onTextChunk: (text: string) => text && queue.push({ type: 'text', text }),
          onToken: (tokens: Token[]) => (completionTokens += tokens.length),
        })
        .then((result) => {
          queue.push({
            type: 'end',
            finishReason: toFinishReason(result.metadata.stopReason),
            usage: totalUsage(promptTokens(loaded, request.prompt), completionTokens),
          });
        });
    });
    return { model: request.model, events };
  }

  refusedFields(request: ChatRequest): string[] {
    return refusedByLocal(request, request.model);
  }

  async chat(request: ChatRequest, signal: AbortSignal): Promise<ChatCompletion> {
    const loaded = await untilAborted(this.load(), signal);
    const release = await this.turns.acquire(signal);
    try {
      const history = toChatHistory(request.messages);
      let completionTokens = 0;
      const result = await loaded.chat.generateResponse(history, {
        ...chatOptions(request),
        signal,
        onToken: (tokens: Token[]) => (completionTokens += tokens.length),
      });
      const usage = totalUsage(chatPromptTokens(loaded, history), completionTokens);
      return {
        id: '',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: result.response, refusal: null },
            finish_reason: toFinishReason(result.metadata.stopReason),
            logprobs: null,
          },
        ],
        usage: openAiUsage(usage),
      };
    } finally {
      release();
    }
  }

  async chatStream(request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>> {
    const loaded = await untilAborted(this.load(), signal);
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choices: ChatCompletionChunk['choices'], usage?: TokenUsage): ChatCompletionChunk => ({
      id: '',
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      choices,
      ...(usage ? { usage: openAiUsage(usage) } : {}),
    });
    return this.run<ChatCompletionChunk>(signal, (queue, generationSignal) => {
      const history = toChatHistory(request.messages);
      let completionTokens = 0;
      queue.push(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
      return loaded.chat
        .generateResponse(history, {
          ...chatOptions(request),
          signal: generationSignal,
          onTextChunk: (text: string) => text && queue.push(chunk([{ index: 0, delta: { content: text }, finish_reason: null }])),
          onToken: (tokens: Token[]) => (completionTokens += tokens.length),
        })
        .then((result) => {
          queue.push(chunk([{ index: 0, delta: {}, finish_reason: toFinishReason(result.metadata.stopReason) }]));
          queue.push(chunk([], totalUsage(chatPromptTokens(loaded, history), completionTokens)));
        });
    });
  }

  async embed(request: EmbeddingRequest, signal: AbortSignal): Promise<CreateEmbeddingResponse> {
    const loaded = await untilAborted(this.load(), signal);
    const { context, limit } = await untilAborted(this.embeddingContext(loaded), signal);
    const release = await this.embeddingTurns.acquire(signal);
    try {
      const data: CreateEmbeddingResponse['data'] = [];
      let tokens = 0;
      for (const [index, text] of request.input.entries()) {
        signal.throwIfAborted();
        const length = context.calculateInputLength(text);
        if (length >= limit) {
          throw new AiError(AiErrorCode.InputTooLong, `input.${index} is ${length} tokens long; the model ${request.model} reads at most ${limit - 1}`);
        }
        const embedding = await context.getEmbeddingFor(text);
        tokens += length;
        const vector = request.dimensions ? normalize(embedding.vector.slice(0, request.dimensions)) : [...embedding.vector];
        data.push({ object: 'embedding', index, embedding: vector });
      }
      return { object: 'list', model: request.model, data, usage: { prompt_tokens: tokens, total_tokens: tokens } };
    } finally {
      release();
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const loaded = await this.loading?.catch(() => undefined);
    await loaded?.llama.dispose();
  }

  /**
   * A streamed generation on the one sequence: waits its turn, runs `generate` (which pushes onto
   * the queue), and yields what it pushes. Leaving the iteration early stops the generation, and
   * the turn is given back when it has stopped.
   */
  private async run<T>(signal: AbortSignal, generate: (queue: AsyncQueue<T>, signal: AbortSignal) => Promise<void>): Promise<AsyncIterable<T>> {
    const release = await this.turns.acquire(signal);
    const queue = new AsyncQueue<T>();
    // Stopped by the caller's signal, or by the consumer leaving the iteration early.
    const stop = new AbortController();
    const running = generate(queue, AbortSignal.any([signal, stop.signal]))
      .then(() => queue.close())
      .catch((err: unknown) => queue.fail(err))
      .finally(release);
    async function* items(): AsyncGenerator<T> {
      try {
        yield* queue;
      } finally {
        stop.abort();
        await running;
      }
    }
    return items();
  }

  private load(): Promise<Loaded> {
    if (this.disposed) return Promise.reject(new AiError(AiErrorCode.ModelUnavailable, 'The server is shutting down'));
    this.loading ??= this.loadOnce().catch((err: unknown) => {
      // Let a later request try again (the file may be fixed meanwhile); say why in the log only.
      this.loading = undefined;
      this.logger.error(
        { err: err instanceof Error ? { message: err.message, stack: err.stack } : err },
        `Could not load the AI model ${this.options.modelPath}`,
      );
      throw new AiError(AiErrorCode.ModelUnavailable, 'The local AI model could not be loaded; see the server log');
    });
    return this.loading;
  }

  private async loadOnce(): Promise<Loaded> {
    const started = Date.now();
    // Loaded on demand: the native binary stays out of every process that does not use it.
    const { getLlama, LlamaChat, LlamaCompletion, LlamaLogLevel } = await import('node-llama-cpp');
    const llama = await getLlama({
      // CPU prebuilt binary only: never download or compile llama.cpp, never probe for GPUs.
      gpu: false,
      build: 'never',
      maxThreads: this.options.threads,
      logLevel: LlamaLogLevel.warn,
      logger: (level, message) => this.logger.warn(`llama.cpp ${level}: ${message.trim()}`),
    });
    try {
      const model = await llama.loadModel({ modelPath: this.options.modelPath });
      const context = await model.createContext({ threads: this.options.threads, sequences: 1, contextSize: { max: 8192 } });
      const sequence = context.getSequence();
      const completion = new LlamaCompletion({ contextSequence: sequence });
      const chat = new LlamaChat({ contextSequence: sequence });
      this.logger.log(
        `Loaded AI model ${this.options.modelPath} (${context.contextSize}-token context, ${this.options.threads} thread(s), chat template ${chat.chatWrapper.wrapperName}) in ${Date.now() - started} ms`,
      );
      return { llama, model, completion, chat, contextSize: context.contextSize };
    } catch (err) {
      await llama.dispose().catch(() => undefined);
      throw err;
    }
  }

  private embeddingContext(loaded: Loaded): Promise<{ context: LlamaEmbeddingContext; limit: number }> {
    const limit = Math.min(EMBEDDING_CONTEXT_TOKENS, loaded.model.trainContextSize);
    this.embeddings ??= loaded.model
      .createEmbeddingContext({ threads: this.options.threads, contextSize: limit })
      .then((context) => ({ context, limit }))
      .catch((err: unknown) => {
        this.embeddings = undefined;
        this.logger.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : err }, 'Could not make an embedding context');
        throw new AiError(AiErrorCode.ModelUnavailable, 'The local AI model cannot make embeddings; see the server log');
      });
    return this.embeddings;
  }
}

/** The sampling options of a chat request, as node-llama-cpp takes them. */
function chatOptions(request: ChatRequest) {
  const stops = stopsOf(request.stop);
  return {
    maxTokens: request.max_completion_tokens ?? request.max_tokens ?? undefined,
    temperature: request.temperature ?? DEFAULT_TEMPERATURE,
    ...(request.top_p != null ? { topP: request.top_p } : {}),
    ...(request.seed != null ? { seed: request.seed } : {}),
    ...(stops.length ? { customStopTriggers: stops } : {}),
  };
}

function toFinishReason(stopReason: string): FinishReason {
  return stopReason === 'maxTokens' ? 'length' : 'stop';
}

function openAiUsage(usage: TokenUsage): { prompt_tokens: number; completion_tokens: number; total_tokens: number } {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.totalTokens };
}

/** Prompt tokens as the model sees them: its tokens plus the beginning-of-sequence one, cut to the context. */
function promptTokens({ model, contextSize }: Loaded, prompt: string): number {
  const bos = model.tokens.bos != null && model.tokens.shouldPrependBosToken ? 1 : 0;
  return Math.min(model.tokenize(prompt).length + bos, contextSize);
}

/** A chat's prompt tokens: the history as the chat template writes it, cut to the context. */
function chatPromptTokens({ model, chat, contextSize }: Loaded, history: ChatHistoryItem[]): number {
  const { contextText } = chat.chatWrapper.generateContextState({ chatHistory: history });
  return Math.min(contextText.tokenize(model.tokenizer).length, contextSize);
}

/** A vector cut to fewer dimensions, scaled back to length 1 (as OpenAI's `dimensions` answers). */
function normalize(vector: readonly number[]): number[] {
  const length = Math.hypot(...vector) || 1;
  return vector.map((v) => v / length);
}

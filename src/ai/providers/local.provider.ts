import { Logger } from '@nestjs/common';
import { basename } from 'node:path';
import type { Llama, LlamaCompletion, LlamaModel, Token } from 'node-llama-cpp';
import { AiError, AiErrorCode } from '../ai.errors.js';
import { AsyncQueue, Mutex, untilAborted } from './concurrency.js';
import { AiProvider, FinishReason, GenerationRequest, GenerationResult, GenerationStream, StreamEvent, totalUsage } from './ai-provider.js';

export interface LocalProviderOptions {
  modelPath: string;
  /** CPU threads for llama.cpp. The library's default (all cores) is ~500× slower on a busy 2-core machine. */
  threads: number;
  /** Reported model name; defaults to the file name without `.gguf`. */
  model?: string;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  completion: LlamaCompletion;
  contextSize: number;
}

// Plain text completion (LlamaCompletion, not a chat session: small GGUF models often have no chat
// template). llama.cpp's sampler treats temperature 0 as greedy; 0.8 is the library's suggestion.
const DEFAULT_TEMPERATURE = 0.8;

/**
 * A GGUF model run in-process by node-llama-cpp on the CPU. The library (and its native binary) is
 * imported only when this provider is picked, and the model is loaded on the first request, once.
 * One context, one sequence: generations take turns (a Mutex), each bounded by the caller's signal.
 */
export class LocalProvider implements AiProvider {
  readonly name = 'local' as const;
  readonly remote = false;
  readonly defaultModel: string;
  private readonly logger = new Logger('LocalAiProvider');
  private readonly turns = new Mutex();
  private loading?: Promise<Loaded>;
  private disposed = false;

  constructor(private readonly options: LocalProviderOptions) {
    this.defaultModel = options.model ?? basename(options.modelPath).replace(/\.gguf$/i, '');
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
        model: this.defaultModel,
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
    const release = await this.turns.acquire(signal);
    const queue = new AsyncQueue<StreamEvent>();
    // Stopped by the caller's signal, or by the consumer leaving the iteration early.
    const stop = new AbortController();
    const generationSignal = AbortSignal.any([signal, stop.signal]);
    let completionTokens = 0;
    const running = loaded.completion
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
        queue.close();
      })
      .catch((err: unknown) => queue.fail(err))
      .finally(release);

    async function* events(): AsyncGenerator<StreamEvent> {
      try {
        yield* queue;
      } finally {
        stop.abort();
        await running;
      }
    }
    return { model: this.defaultModel, events: events() };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const loaded = await this.loading?.catch(() => undefined);
    await loaded?.llama.dispose();
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
    const { getLlama, LlamaCompletion, LlamaLogLevel } = await import('node-llama-cpp');
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
      const completion = new LlamaCompletion({ contextSequence: context.getSequence(), autoDisposeSequence: true });
      this.logger.log(
        `Loaded AI model ${this.defaultModel} (${context.contextSize}-token context, ${this.options.threads} thread(s)) in ${Date.now() - started} ms`,
      );
      return { llama, model, completion, contextSize: context.contextSize };
    } catch (err) {
      await llama.dispose().catch(() => undefined);
      throw err;
    }
  }
}

function toFinishReason(stopReason: string): FinishReason {
  return stopReason === 'maxTokens' ? 'length' : 'stop';
}

/** Prompt tokens as the model sees them: its tokens plus the beginning-of-sequence one, cut to the context. */
function promptTokens({ model, contextSize }: Loaded, prompt: string): number {
  const bos = model.tokens.bos != null && model.tokens.shouldPrependBosToken ? 1 : 0;
  return Math.min(model.tokenize(prompt).length + bos, contextSize);
}

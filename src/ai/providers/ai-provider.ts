// OpenAI's wire types, for their shape only: `import type` is erased from the build, so the service
// never loads the `openai` package (a dev dependency; see docs/decisions/2026-11-28-ai-gateway.md).
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import type { CreateEmbeddingResponse } from 'openai/resources/embeddings';

export type FinishReason = 'stop' | 'length';

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** A prompt to continue (`POST /v1/ai/generate`, landing pages). */
export interface GenerationRequest {
  /** The upstream's model id (a local provider has one model and ignores it). */
  model: string;
  prompt: string;
  maxTokens: number;
  /** Unset: the provider's default. */
  temperature?: number;
}

export interface GenerationResult {
  /** The model that answered, as the provider names it. */
  model: string;
  text: string;
  finishReason: FinishReason;
  usage: TokenUsage;
}

export type StreamEvent =
  | { type: 'text'; text: string }
  /** `model`: when the provider named the model that answered (it may differ from the one asked for). */
  | { type: 'end'; finishReason: FinishReason; usage: TokenUsage; model?: string };

export interface GenerationStream {
  model: string;
  /** Text chunks, then exactly one `end`. Stopping the iteration early stops the generation. */
  events: AsyncIterable<StreamEvent>;
}

/**
 * A chat completion as a provider is asked for it: OpenAI's request body, `model` being the
 * upstream's id, without the streaming switches (the method called says whether it streams).
 */
export type ChatRequest = Omit<ChatCompletionCreateParamsNonStreaming, 'stream' | 'stream_options'>;

/** Embeddings of each input, in order; `model` is the upstream's id. */
export interface EmbeddingRequest {
  model: string;
  input: string[];
  dimensions?: number;
  user?: string;
}

export type { ChatCompletion, ChatCompletionChunk, CreateEmbeddingResponse };

/**
 * A text-generation backend. Implementations throw `AiError`s and stop work as soon as `signal`
 * aborts (client gone, the deadline passed, or a fallback's wait ran out); they never log prompts
 * or outputs.
 */
export interface AiProvider {
  /** Its name in AI_PROVIDERS_FILE (`openai` or `local` with the single-provider settings): usage rows, logs, metrics. */
  readonly name: string;
  readonly kind: 'openai' | 'local';
  /** True when prompts leave this process (AI_REDACT_PII applies). */
  readonly remote: boolean;
  generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationResult>;
  /** Resolves once the provider has accepted the request, so a refusal can still be an HTTP error. */
  stream(request: GenerationRequest, signal: AbortSignal): Promise<GenerationStream>;
  /**
   * The fields of a chat request this provider cannot honour, as `field: why` problems (400): a
   * local model has no tools, no images, one choice. An OpenAI-compatible upstream takes them all.
   */
  refusedFields(request: ChatRequest): string[];
  /** OpenAI's chat completion (the provider's own `id`, `created` and `model`; the gateway puts its own). */
  chat(request: ChatRequest, signal: AbortSignal): Promise<ChatCompletion>;
  /**
   * OpenAI's chunks, the last one with `usage` and no choices. Resolves once the provider has accepted
   * the request; stopping the iteration early stops the generation.
   */
  chatStream(request: ChatRequest, signal: AbortSignal): Promise<AsyncIterable<ChatCompletionChunk>>;
  embed(request: EmbeddingRequest, signal: AbortSignal): Promise<CreateEmbeddingResponse>;
  /** Frees what the provider holds (a loaded model) at shutdown. */
  dispose?(): Promise<void>;
}

export function totalUsage(promptTokens: number, completionTokens: number): TokenUsage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

/** OpenAI's `finish_reason` as ours: `length` when cut at the token limit, otherwise the generation stopped. */
export function toFinishReason(reason: string | null | undefined): FinishReason {
  // OpenAI also has content_filter / tool_calls; for plain text the generation simply stopped.
  return reason === 'length' ? 'length' : 'stop';
}

/** OpenAI's usage object as ours; missing or odd numbers count 0. */
export function fromOpenAiUsage(usage: { prompt_tokens?: unknown; completion_tokens?: unknown; total_tokens?: unknown } | null | undefined): TokenUsage {
  const prompt = Number.isFinite(usage?.prompt_tokens) ? Number(usage!.prompt_tokens) : 0;
  const completion = Number.isFinite(usage?.completion_tokens) ? Number(usage!.completion_tokens) : 0;
  const total = Number.isFinite(usage?.total_tokens) ? Number(usage!.total_tokens) : prompt + completion;
  return { promptTokens: prompt, completionTokens: completion, totalTokens: total };
}

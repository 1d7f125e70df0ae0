export type FinishReason = 'stop' | 'length';

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface GenerationRequest {
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
 * A text-generation backend. Implementations throw `AiError`s and stop work as soon as `signal`
 * aborts (client gone, or the deadline passed); they never log prompts or outputs.
 */
export interface AiProvider {
  readonly name: 'openai' | 'local';
  /** True when prompts leave this process (AI_REDACT_PII applies). */
  readonly remote: boolean;
  /** The model name reported before the provider has answered (usage rows of failed calls). */
  readonly defaultModel: string;
  generate(request: GenerationRequest, signal: AbortSignal): Promise<GenerationResult>;
  /** Resolves once the provider has accepted the request, so a refusal can still be an HTTP error. */
  stream(request: GenerationRequest, signal: AbortSignal): Promise<GenerationStream>;
  /** Frees what the provider holds (a loaded model) at shutdown. */
  dispose?(): Promise<void>;
}

/** Injection token of the provider picked from AI_PROVIDER at start. */
export const AI_PROVIDER = Symbol('AI_PROVIDER');

export function totalUsage(promptTokens: number, completionTokens: number): TokenUsage {
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}

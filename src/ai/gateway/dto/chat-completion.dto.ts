import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsInt, IsNumber, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateBy, ValidateNested } from 'class-validator';
import { ValidatedByHand } from '../../../common/http/validated-by-hand.js';
import { type ChatMessage, IsChatMessages, MAX_MESSAGES } from '../chat-messages.js';

const MESSAGES_EXAMPLE = [
  { role: 'system', content: 'You write short, friendly product copy.' },
  { role: 'user', content: 'A one-line tagline for a recipe app.' },
];

/** OpenAI's field, passed on as sent to an OpenAI-compatible upstream (which validates it); a local model refuses it with 400. */
function PassedOn(description: string, type: 'object' | 'array' | 'number' | 'string' | 'boolean' = 'object'): PropertyDecorator {
  const full = `${description} Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it.`;
  const schema: ApiPropertyOptions =
    type === 'object'
      ? { type: 'object', additionalProperties: true, description: full }
      : type === 'array'
        ? { type: 'array', items: { type: 'object' }, description: full }
        : { type, description: full };
  return (target, key) => {
    ValidatedByHand()(target, key);
    IsOptional()(target, key); // (whitelists the field; its value never reaches class-validator)
    ApiPropertyOptional(schema)(target, key);
  };
}

/** `stop`: one string, or up to four. */
function IsStop(): PropertyDecorator {
  return ValidateBy({
    name: 'isStop',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' || (Array.isArray(value) && value.length <= 4 && value.every((s) => typeof s === 'string' && s.length <= 1000)),
      defaultMessage: () => 'stop must be a string or an array of at most 4 strings',
    },
  });
}

export class StreamOptionsDto {
  /** Adds a last chunk with `usage` and no `choices` before `data: [DONE]`. @example true */
  @IsOptional()
  @IsBoolean({ message: 'stream_options.include_usage must be a boolean' })
  include_usage?: boolean | null;

  /** OpenAI's padding of chunks against side channels; accepted and ignored (this server adds none). */
  @IsOptional()
  @IsBoolean({ message: 'stream_options.include_obfuscation must be a boolean' })
  include_obfuscation?: boolean;
}

/**
 * OpenAI's Chat Completions request (https://platform.openai.com/docs/api-reference/chat/create).
 * Every field of OpenAI's is taken; those below `user` are passed on to an OpenAI-compatible upstream
 * as sent. Anything else is a typo: 400 naming it. (`src/ai/gateway/openai-shapes.ts` holds this
 * class to the `openai` package's type.)
 */
export class ChatCompletionRequestDto {
  /** A model of `GET /v1/models`. @example fast */
  @IsString({ message: 'model must be a string' })
  @Length(1, 200, { message: 'model must be 1 to 200 characters long' })
  model: string;

  @ApiProperty({
    description: `The conversation so far (1–${MAX_MESSAGES} messages): \`role\` system, developer, user or assistant (tool with an upstream that has tools), \`content\` a string or an array of content parts (text; image_url, input_audio and file parts with an upstream that takes them). Never stored or logged.`,
    example: MESSAGES_EXAMPLE,
    type: 'array',
    items: { type: 'object' },
  })
  @IsChatMessages()
  messages: ChatMessage[];

  /** Most tokens to generate (default and most: the model's `maxTokens`, 4096 unless the operator says otherwise). @example 64 */
  @IsOptional()
  @IsInt({ message: 'max_tokens must be an integer' })
  @Min(1, { message: 'max_tokens must be at least 1' })
  max_tokens?: number | null;

  /** The same as `max_tokens`, under OpenAI's newer name (which wins when both are sent). @example 64 */
  @IsOptional()
  @IsInt({ message: 'max_completion_tokens must be an integer' })
  @Min(1, { message: 'max_completion_tokens must be at least 1' })
  max_completion_tokens?: number | null;

  /** 0–2. @example 0.7 */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'temperature must be a number' })
  @Min(0, { message: 'temperature must be between 0 and 2' })
  @Max(2, { message: 'temperature must be between 0 and 2' })
  temperature?: number | null;

  /** 0–1. @example 1 */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'top_p must be a number' })
  @Min(0, { message: 'top_p must be between 0 and 1' })
  @Max(1, { message: 'top_p must be between 0 and 1' })
  top_p?: number | null;

  @ApiPropertyOptional({
    description: 'Where to stop: a string, or up to 4',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: 4 }],
  })
  @IsOptional()
  @IsStop()
  stop?: string | string[] | null;

  /** `true` answers `text/event-stream`: `chat.completion.chunk` objects, then `data: [DONE]`. @example false */
  @IsOptional()
  @IsBoolean({ message: 'stream must be a boolean' })
  stream?: boolean | null;

  /** With `stream: true` only. */
  @IsOptional()
  @ValidateNested()
  @Type(() => StreamOptionsDto)
  stream_options?: StreamOptionsDto | null;

  /** How many choices (more than 1 with an OpenAI-compatible upstream only). @example 1 */
  @IsOptional()
  @IsInt({ message: 'n must be an integer' })
  @Min(1, { message: 'n must be between 1 and 128' })
  @Max(128, { message: 'n must be between 1 and 128' })
  n?: number | null;

  /** For repeatable sampling. @example 42 */
  @IsOptional()
  @IsInt({ message: 'seed must be an integer' })
  seed?: number | null;

  /** `true` would ask the upstream to keep the conversation: refused (400), prompts and answers are never stored. @example false */
  @IsOptional()
  @IsBoolean({ message: 'store must be a boolean' })
  store?: boolean | null;

  /** Your end user, for the upstream's abuse monitoring (masked like the messages with AI_REDACT_PII). @example user-1234 */
  @IsOptional()
  @IsString({ message: 'user must be a string' })
  @MaxLength(256, { message: 'user must be at most 256 characters long' })
  user?: string;

  @PassedOn('Tools the model may call (function definitions).', 'array')
  tools?: unknown;

  @PassedOn('Which tool to call: "none", "auto", "required" or a named one.')
  tool_choice?: unknown;

  @PassedOn('Whether the model may call several tools at once.', 'boolean')
  parallel_tool_calls?: unknown;

  @PassedOn('Deprecated by OpenAI in favour of tools.', 'array')
  functions?: unknown;

  @PassedOn('Deprecated by OpenAI in favour of tool_choice.')
  function_call?: unknown;

  @PassedOn('{ "type": "text" | "json_object" | "json_schema", … }.')
  response_format?: unknown;

  @PassedOn('-2 to 2.', 'number')
  frequency_penalty?: unknown;

  @PassedOn('-2 to 2.', 'number')
  presence_penalty?: unknown;

  @PassedOn('Token id → bias.')
  logit_bias?: unknown;

  @PassedOn('Log probabilities of the output tokens.', 'boolean')
  logprobs?: unknown;

  @PassedOn('0–20, with logprobs.', 'number')
  top_logprobs?: unknown;

  @PassedOn('Reasoning models: low, medium, high…', 'string')
  reasoning_effort?: unknown;

  @PassedOn('low, medium or high.', 'string')
  verbosity?: unknown;

  @PassedOn('Output modalities: ["text"], ["text", "audio"].', 'array')
  modalities?: unknown;

  @PassedOn('Audio output settings.')
  audio?: unknown;

  @PassedOn('Predicted output.')
  prediction?: unknown;

  @PassedOn('Web search settings.')
  web_search_options?: unknown;

  @PassedOn('auto, default, flex, priority…', 'string')
  service_tier?: unknown;

  @PassedOn('A key for the upstream to cache prompts by.', 'string')
  prompt_cache_key?: unknown;

  @PassedOn('Prompt caching settings.')
  prompt_cache_options?: unknown;

  @PassedOn('"in_memory"; "24h" is refused (400): the platform never asks an upstream to keep a prompt.', 'string')
  prompt_cache_retention?: unknown;

  @PassedOn('A stable id of your end user for abuse monitoring.', 'string')
  safety_identifier?: unknown;

  @PassedOn('Key-value pairs for stored completions (which this server never asks for).')
  metadata?: unknown;

  @PassedOn('Moderation settings.')
  moderation?: unknown;
}

/** Documentation only: one choice of a chat completion. */
export class ChatCompletionMessageDto {
  @ApiProperty({ enum: ['assistant'], example: 'assistant' })
  role: 'assistant';

  @ApiProperty({ type: String, nullable: true, example: 'Every recipe you love, one tap away.' })
  content: string | null;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: 'Tool calls, from an upstream given tools' })
  @Allow()
  tool_calls?: unknown[];
}

export class ChatCompletionChoiceDto {
  /** @example 0 */
  index: number;

  message: ChatCompletionMessageDto;

  @ApiProperty({ type: String, example: 'stop', description: "`stop`, `length` (cut at max_tokens), or the upstream's own (`tool_calls`, `content_filter`)" })
  finish_reason: string;
}

export class CompletionUsageDto {
  /** @example 24 */
  prompt_tokens: number;

  /** @example 9 */
  completion_tokens: number;

  /** @example 33 */
  total_tokens: number;
}

/** Documentation only: OpenAI's chat completion. */
export class ChatCompletionDto {
  /** This server's id of the call (`chatcmpl-` and the id of its usage row, `gen_…`). @example chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;

  @ApiProperty({ enum: ['chat.completion'], example: 'chat.completion' })
  object: 'chat.completion';

  /** Unix seconds. @example 1795342530 */
  created: number;

  /** The model asked for (its id in `GET /v1/models`), whichever target answered. @example fast */
  model: string;

  @ApiProperty({ type: [ChatCompletionChoiceDto] })
  choices: ChatCompletionChoiceDto[];

  usage: CompletionUsageDto;
}

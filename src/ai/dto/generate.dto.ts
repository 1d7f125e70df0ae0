import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const MAX_PROMPT_CHARS = 32_000;
export const MAX_TOKENS_LIMIT = 4096;
export const DEFAULT_MAX_TOKENS = 256;

export class GenerateDto {
  /**
   * The text to continue or answer (1–32 000 characters). Never stored or logged. With
   * AI_REDACT_PII=true, e-mail addresses and phone numbers are masked before it leaves for a remote provider.
   */
  @ApiProperty({ example: 'Write a two-sentence welcome message for the sign-up page of a recipe app.' })
  @IsString({ message: 'prompt must be a string' })
  @Length(1, MAX_PROMPT_CHARS, { message: `prompt must be 1 to ${MAX_PROMPT_CHARS} characters long` })
  prompt: string;

  /**
   * Most tokens to generate (1–4096; default 256). `finishReason` is `length` when the text was cut here.
   * @example 64
   */
  @IsOptional()
  @IsInt({ message: 'maxTokens must be an integer' })
  @Min(1, { message: `maxTokens must be between 1 and ${MAX_TOKENS_LIMIT}` })
  @Max(MAX_TOKENS_LIMIT, { message: `maxTokens must be between 1 and ${MAX_TOKENS_LIMIT}` })
  maxTokens?: number;

  /**
   * Sampling temperature, 0–2: 0 picks the likeliest token every time, higher is more varied. Default: the provider's.
   * @example 0.7
   */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'temperature must be a number' })
  @Min(0, { message: 'temperature must be between 0 and 2' })
  @Max(2, { message: 'temperature must be between 0 and 2' })
  temperature?: number;

  /**
   * `true` answers with `text/event-stream` as the text is generated, instead of one JSON body at the end.
   * @example false
   */
  @IsOptional()
  @IsBoolean({ message: 'stream must be a boolean' })
  stream?: boolean;
}

export class TokenUsageDto {
  /** @example 18 */
  promptTokens: number;

  /** @example 64 */
  completionTokens: number;

  /** @example 82 */
  totalTokens: number;
}

export class GenerationDto {
  /** @example gen_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;

  /** The model that generated the text. @example gpt-4o-mini */
  model: string;

  @ApiProperty({ example: 'Welcome to Pantry! Save the recipes you love and cook something new tonight.' })
  text: string;

  /** `stop`: the model ended the text; `length`: cut at `maxTokens`. */
  @ApiProperty({ enum: ['stop', 'length'], example: 'stop' })
  finishReason: 'stop' | 'length';

  usage: TokenUsageDto;

  /** ISO 8601, UTC. @example 2026-11-22T10:15:30.000Z */
  createdAt: string;
}

/** Documentation only: the last `data:` message of a stream before `data: [DONE]`. */
export class StreamEndDto {
  @ApiProperty({ enum: ['stop', 'length'], example: 'length' })
  finishReason: 'stop' | 'length';

  usage: TokenUsageDto;
}

import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, MaxLength, Min, ValidateBy } from 'class-validator';

/** The most inputs one request may embed (OpenAI's limit). */
export const MAX_EMBEDDING_INPUTS = 2048;

/** What is wrong with `input`, if anything: one non-empty string, or 1–2048 of them. */
export function embeddingInputProblem(input: unknown): string | undefined {
  const shape = `input must be a string or an array of 1 to ${MAX_EMBEDDING_INPUTS} strings (token arrays are not taken)`;
  if (typeof input === 'string') return input === '' ? 'input must not be empty' : undefined;
  if (!Array.isArray(input) || input.length === 0 || input.length > MAX_EMBEDDING_INPUTS) return shape;
  const bad = input.findIndex((item) => typeof item !== 'string' || item === '');
  if (bad === -1) return undefined;
  return typeof input[bad] === 'string' ? `input.${bad} must not be empty` : shape;
}

/** OpenAI's embeddings request (https://platform.openai.com/docs/api-reference/embeddings/create). */
export class EmbeddingsRequestDto {
  /** A model of `GET /v1/models` that makes embeddings. @example embed */
  @IsString({ message: 'model must be a string' })
  @Length(1, 200, { message: 'model must be 1 to 200 characters long' })
  model: string;

  @ApiProperty({
    description: `The text to embed: one string, or an array of 1–${MAX_EMBEDDING_INPUTS} (answered in the same order). Never stored or logged.`,
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, maxItems: MAX_EMBEDDING_INPUTS }],
    example: 'A recipe app for busy weeknights',
  })
  @ValidateBy({
    name: 'isEmbeddingInput',
    validator: { validate: (value: unknown) => embeddingInputProblem(value) === undefined, defaultMessage: (args) => embeddingInputProblem(args?.value) ?? '' },
  })
  input: string | string[];

  @ApiPropertyOptional({
    enum: ['float', 'base64'],
    example: 'float',
    description:
      "`float`: arrays of numbers; `base64`: each vector as little-endian float32 bytes in base64 (what OpenAI's Node and Python clients ask for by default, and decode)",
  })
  @IsOptional()
  @IsIn(['float', 'base64'], { message: 'encoding_format must be float or base64' })
  encoding_format?: 'float' | 'base64';

  /** Fewer dimensions than the model's (cut and scaled back to length 1 by a local model; passed on to an upstream). @example 256 */
  @IsOptional()
  @IsInt({ message: 'dimensions must be an integer' })
  @Min(1, { message: 'dimensions must be between 1 and 65536' })
  @Max(65536, { message: 'dimensions must be between 1 and 65536' })
  dimensions?: number;

  /** Your end user, for the upstream's abuse monitoring. @example user-1234 */
  @IsOptional()
  @IsString({ message: 'user must be a string' })
  @MaxLength(256, { message: 'user must be at most 256 characters long' })
  user?: string;
}

/** Documentation only. */
export class EmbeddingDto {
  @ApiProperty({ enum: ['embedding'], example: 'embedding' })
  object: 'embedding';

  /** The input's position. @example 0 */
  index: number;

  @ApiProperty({
    oneOf: [{ type: 'array', items: { type: 'number' } }, { type: 'string' }],
    example: [0.0123, -0.0456, 0.0789],
    description: 'The vector (a base64 string with `encoding_format: "base64"`)',
  })
  embedding: number[] | string;
}

export class EmbeddingUsageDto {
  /** @example 8 */
  prompt_tokens: number;

  /** @example 8 */
  total_tokens: number;
}

/** Documentation only: OpenAI's embeddings answer. */
export class EmbeddingsDto {
  @ApiProperty({ enum: ['list'], example: 'list' })
  object: 'list';

  @ApiProperty({ type: [EmbeddingDto] })
  data: EmbeddingDto[];

  /** The model asked for. @example embed */
  model: string;

  usage: EmbeddingUsageDto;
}

import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';

export class CreateAnalyticsShareDto {
  /**
   * What the link is for (shown in the list, not on the page): 1–100 characters.
   * @example Investors
   */
  @IsString()
  @Matches(/^[^\p{Cc}\p{Cs}]{1,100}$/u, { message: 'name must be 1 to 100 characters without control characters' })
  name: string;

  /**
   * Optional: the page asks for it first (8–200 characters). Hashed; guesses are locked out as sign-in's are.
   * @example correct horse battery
   */
  @IsOptional()
  @IsString()
  @MinLength(8)
  @MaxLength(200)
  password?: string;
}

export class AnalyticsShareDto {
  /** @example shr_01JC3ZK4M6N8P0Q2R4S6T8V0WX */
  id: string;

  /** @example Investors */
  name: string;

  /** The read-only dashboard's address (anyone with it can see the app's analytics, after the password if one is set). @example https://platform.example.com/share/3q2-7wVkT0bqQ1rCk5nKx8mD2yP4sLhJ9fA6uE1oZcg */
  url: string;

  /** Whether a password guards it. @example false */
  protected: boolean;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-29T10:31:00.000Z' })
  createdAt: string;
}

export class AnalyticsSharePageDto extends PageOf(AnalyticsShareDto) {}

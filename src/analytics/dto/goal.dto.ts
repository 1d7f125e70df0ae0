import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';

/** Exactly one of `event` and `page`. */
export class CreateGoalDto {
  /**
   * A custom event's name (1–40 characters): each such event is a completion. Not `pageview` (use `page`), nor `Sign-up` (built in).
   * @example Download
   */
  @IsOptional()
  @IsString()
  @Matches(/^[^\p{Cc}\p{Cs}]{1,40}$/u, { message: 'event must be 1 to 40 characters without control characters' })
  event?: string;

  /**
   * A page's path, starting with `/`, up to 300 characters; `*` matches any characters (`/blog/*`). Each pageview of a matching page is a completion.
   * @example /pricing
   */
  @IsOptional()
  @IsString()
  @Matches(/^\/[^\p{Cc}\p{Cs}]{0,299}$/u, { message: 'page must be a path starting with / of at most 300 characters without control characters' })
  page?: string;
}

export class GoalDto {
  /** @example goal_01JC3ZK4M6N8P0Q2R4S6T8V0WX */
  id: string;

  /** The event's name, or `Visit <page>` for a page goal: the `goal` of `breakdown?property=goal`. @example Download */
  name: string;

  /** The custom event counted (absent on a page goal). @example Download */
  event?: string;

  /** The page pattern counted (absent on an event goal). @example /blog/* */
  page?: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-25T10:31:00.000Z' })
  createdAt: string;
}

export class GoalPageDto extends PageOf(GoalDto) {}

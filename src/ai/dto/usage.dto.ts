import { IsOptional, Matches } from 'class-validator';

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export class UsageQueryDto {
  /**
   * First UTC day, included (YYYY-MM-DD). Default: 29 days before `to`.
   * @example 2026-11-01
   */
  @IsOptional()
  @Matches(DATE, { message: 'from must be a date (YYYY-MM-DD)' })
  from?: string;

  /**
   * Last UTC day, included (YYYY-MM-DD). Default: today. At most 366 days after `from`.
   * @example 2026-11-30
   */
  @IsOptional()
  @Matches(DATE, { message: 'to must be a date (YYYY-MM-DD)' })
  to?: string;
}

export class UsageDayDto {
  /** UTC day. @example 2026-11-22 */
  date: string;

  /** Generations asked for (streamed or not), failed ones included. @example 12 */
  requests: number;

  /** Of those, the ones that did not complete (upstream error, timeout, client gone). @example 1 */
  failed: number;

  /** @example 340 */
  promptTokens: number;

  /** @example 1200 */
  completionTokens: number;

  /** @example 1540 */
  totalTokens: number;
}

export class UsageTotalsDto {
  /** @example 12 */
  requests: number;

  /** @example 1 */
  failed: number;

  /** @example 340 */
  promptTokens: number;

  /** @example 1200 */
  completionTokens: number;

  /** @example 1540 */
  totalTokens: number;
}

export class UsageDto {
  /** @example 2026-11-01 */
  from: string;

  /** @example 2026-11-30 */
  to: string;

  /** One entry per day from `from` to `to`, oldest first, quiet days included with zeros. */
  data: UsageDayDto[];

  /** The sums over the whole range. */
  totals: UsageTotalsDto;
}

import { ApiProperty, IntersectionType, OmitType } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/dto/page-query.dto.js';

/** The query string of every stats route (checked by the service, whose 400s name the bad part). */
export class StatsQueryDto {
  /**
   * `day` (today), `7d` and `30d` (ending today), `month` (this month so far), `12mo` (this month and the 11 before), or `custom` with `from` and `to`. Default `30d`. UTC.
   * @example 30d
   */
  @IsOptional()
  @IsString()
  @MaxLength(10)
  period?: string;

  /**
   * First day of a `custom` period, inclusive (YYYY-MM-DD, UTC).
   * @example 2026-11-01
   */
  @IsOptional()
  @IsString()
  @MaxLength(10)
  from?: string;

  /**
   * Last day of a `custom` period, inclusive; at most 2 years after `from`.
   * @example 2026-11-22
   */
  @IsOptional()
  @IsString()
  @MaxLength(10)
  to?: string;

  /**
   * Comma-separated: `visitors`, `visits`, `pageviews`, `bounceRate`, `visitDuration`, `signups`, `conversionRate`, `events` (custom events).
   * @example visitors,pageviews,signups,conversionRate
   */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  metrics?: string;

  /**
   * `property==value` clauses joined by `;`, all of which must hold. Properties: `page`, `referrer`, `source`, `utmCampaign`, `browser`, `os`, `device`, `deployment`, `country`, `event`, `props.<key>`.
   * @example page==/;device==mobile
   */
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  filters?: string;
}

export class TimeseriesQueryDto extends StatsQueryDto {
  /**
   * `hour` (ranges up to 31 days), `day` or `month`. Default: `hour` for one day, `month` beyond 92 days, else `day`.
   * @example day
   */
  @IsOptional()
  @IsString()
  @MaxLength(10)
  interval?: string;
}

export class BreakdownQueryDto extends IntersectionType(StatsQueryDto, PageQueryDto) {
  /**
   * What to group by: `page`, `referrer`, `source` (utm_source, else the referrer host), `utmCampaign`, `browser`, `os`, `device` (`desktop`, `mobile`, `tablet`), `deployment`, `country` (ISO 3166-1 alpha-2, `(unknown)`), `event` (a custom event's name), `props.<key>` (a custom event's property) or `goal` (per goal: visitors, events, conversionRate). For `event` and `props.<key>` the default metrics are `visitors,events`.
   * @example page
   */
  @ApiProperty({ required: true })
  @IsOptional() // required, but checked by the service so that the 400 lists the properties
  @IsString()
  @MaxLength(50)
  property: string;

  /**
   * A goal's name (`Sign-up`, or one of the app's goals) as the funnel's step instead of sign-up: each row's
   * `signups` counts the goal's unique converting visitors (once a day) and `conversionRate` is those ÷ the row's
   * visitors — e.g. `property=deployment&metrics=visitors,signups,conversionRate&goal=Download`. Unknown goal → 404.
   * @example Download
   */
  @IsOptional()
  @IsString()
  @MaxLength(310)
  goal?: string;
}

/** The export's query: the period and filters of the stats routes (every metric is exported). */
export class ExportQueryDto extends OmitType(StatsQueryDto, ['metrics'] as const) {}

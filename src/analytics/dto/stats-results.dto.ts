import { ApiProperty } from '@nestjs/swagger';

const METRIC_EXAMPLE = { visitors: 12, pageviews: 31, signups: 2, conversionRate: 16.7 };

export class AggregateResultDto {
  @ApiProperty({
    description: 'One entry per metric asked for, each `{ value }`; percents have one decimal, visitDuration is in seconds',
    type: 'object',
    additionalProperties: { type: 'object', properties: { value: { type: 'number' } } },
    example: { visitors: { value: 12 }, pageviews: { value: 31 }, bounceRate: { value: 41.7 }, visitDuration: { value: 73 } },
  })
  results: Record<string, { value: number }>;
}

export class TimeseriesResultDto {
  @ApiProperty({
    description:
      'Every interval of the range in order, zeros included: `date` is YYYY-MM-DD (day), YYYY-MM-01 (month) or YYYY-MM-DDTHH:00:00Z (hour), then one field per metric',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    example: [
      { date: '2026-11-21', visitors: 3, pageviews: 7 },
      { date: '2026-11-22', visitors: 0, pageviews: 0 },
    ],
  })
  results: Array<Record<string, string | number>>;
}

export class BreakdownPageDto {
  @ApiProperty({
    description: 'Rows keyed by the property (e.g. `page`), most visitors first, then one field per metric',
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    example: [{ page: '/', ...METRIC_EXAMPLE }],
  })
  data: Array<Record<string, string | number>>;

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last', example: null })
  nextCursor: string | null;
}

export class RealtimeDto {
  /** Distinct visitors with a pageview in the last 5 minutes. @example 4 */
  visitors: number;
}

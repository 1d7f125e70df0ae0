import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { AnalyticsStatsService } from './analytics-stats.service.js';
import { BreakdownQueryDto, ExportQueryDto, StatsQueryDto, TimeseriesQueryDto } from './dto/stats-query.dto.js';
import { AnalyticsExport } from './analytics-export.js';
import { AggregateResultDto, BreakdownPageDto, RealtimeDto, TimeseriesResultDto } from './dto/stats-results.dto.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };

/** The stats API of one app (scope analytics:read). Counting is in AnalyticsCollector; this only reads. */
@ApiTags('analytics')
@Controller('apps/:appId/analytics')
export class AnalyticsController {
  constructor(
    private readonly stats: AnalyticsStatsService,
    private readonly exports: AnalyticsExport,
  ) {}

  @Get('aggregate')
  @Scopes('analytics:read')
  @ApiOperation({
    summary: 'Totals over a period',
    description:
      'Visitors, visits, pageviews, bounce rate, visit duration, sign-ups (through landing pages) and conversion rate (sign-ups ÷ visitors) over the period, in UTC. ' +
      'Default metric: visitors. A visitor is counted once per day (visitor ids change daily, by design).',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: AggregateResultDto })
  @ApiErrors(400, 404)
  aggregate(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Query() query: StatsQueryDto): Promise<AggregateResultDto> {
    return this.stats.aggregate(principal.accountId, appId, query);
  }

  @Get('timeseries')
  @Scopes('analytics:read')
  @ApiOperation({
    summary: 'Metrics per hour, day or month',
    description: 'Every interval of the period is present, zeros included. Default metrics: visitors, pageviews.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: TimeseriesResultDto })
  @ApiErrors(400, 404)
  timeseries(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Query() query: TimeseriesQueryDto): Promise<TimeseriesResultDto> {
    return this.stats.timeseries(principal.accountId, appId, query);
  }

  @Get('breakdown')
  @Scopes('analytics:read')
  @ApiOperation({
    summary: 'Metrics per value of a property',
    description:
      'Rows keyed by the property, most visitors first, in the list shape. For `page`, visits and bounces count visits that began on the page. ' +
      '`deployment` with `signups,conversionRate` is the funnel of each deployment’s landing page. ' +
      'A property keeps at most 1,000 values per day: the rest count together as one row, `(other)`.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: BreakdownPageDto })
  @ApiErrors(400, 404)
  breakdown(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Query() query: BreakdownQueryDto): Promise<BreakdownPageDto> {
    return this.stats.breakdown(principal.accountId, appId, query);
  }

  @Get('realtime')
  @Scopes('analytics:read')
  @ApiOperation({ summary: 'Visitors in the last 5 minutes' })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: RealtimeDto })
  @ApiErrors(404)
  realtime(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string): Promise<RealtimeDto> {
    return this.stats.realtime(principal.accountId, appId);
  }

  @Get('export')
  @Scopes('analytics:read')
  @ApiOperation({
    summary: 'Export a period as a ZIP of CSV files',
    description:
      'The dashboard’s tables over the period (and `filters`), one CSV each with a header row: `visitors.csv` (the timeseries, every metric, at the period’s default interval), ' +
      '`pages.csv`, `entry_pages.csv`, `sources.csv`, `utm_campaigns.csv`, `countries.csv`, `devices.csv`, `browsers.csv`, `operating_systems.csv`, ' +
      "`custom_events.csv`, `goals.csv` and `properties.csv`. RFC 4180, UTF-8; a value a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`) starts with `'`. " +
      'Streamed: the period and app are checked before the first byte.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiProduces('application/zip')
  @ApiOkResponse({
    description: 'The archive, `Content-Disposition: attachment; filename="<slug>-analytics-<from>-to-<to>.zip"`',
    content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(400, 404)
  async export(
    @CurrentPrincipal() principal: Principal,
    @Param('appId') appId: string,
    @Query() query: ExportQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { fileName, body } = await this.exports.open(principal.accountId, appId, query);
    await reply.status(200).headers(zipHeaders(fileName)).send(body);
  }
}

/** The headers of a ZIP download (the portal's Export button sends the same). */
export function zipHeaders(fileName: string): Record<string, string> {
  return {
    'content-type': 'application/zip',
    'content-disposition': `attachment; filename="${fileName}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
}

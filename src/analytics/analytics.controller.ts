import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { AnalyticsStatsService } from './analytics-stats.service.js';
import { BreakdownQueryDto, StatsQueryDto, TimeseriesQueryDto } from './dto/stats-query.dto.js';
import { AggregateResultDto, BreakdownPageDto, RealtimeDto, TimeseriesResultDto } from './dto/stats-results.dto.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };

/** The stats API of one app (scope analytics:read). Counting is in AnalyticsCollector; this only reads. */
@ApiTags('analytics')
@Controller('apps/:appId/analytics')
export class AnalyticsController {
  constructor(private readonly stats: AnalyticsStatsService) {}

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
}

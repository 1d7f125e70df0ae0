import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AnalyticsError } from '../analytics/analytics.errors.js';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { AnalyticsShares, MAX_SHARES } from './analytics-shares.service.js';
import { AnalyticsShareDto, AnalyticsSharePageDto, CreateAnalyticsShareDto } from './dto/analytics-share.dto.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const SHARE_ID_PARAM = { name: 'id', example: 'shr_01JC3ZK4M6N8P0Q2R4S6T8V0WX' };

/** Shared dashboards of one app: links to a read-only view of its analytics (served by SharePagesController). */
@ApiTags('analytics')
@Controller('apps/:appId/analytics/shares')
export class AnalyticsSharesController {
  constructor(private readonly shares: AnalyticsShares) {}

  @Post()
  @HttpCode(201)
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Share the dashboard',
    description:
      '`url` (`<PUBLIC_URL>/share/<token>`) shows the app’s analytics read-only, without the portal, to anyone who has it — after `password`, if set. ' +
      `At most ${MAX_SHARES} per app. Audited as \`analytics_share.created\`.`,
  })
  @ApiParam(APP_ID_PARAM)
  @ApiCreatedResponse({ type: AnalyticsShareDto })
  @ApiErrorOf(
    `The app has ${MAX_SHARES} shared links (\`share_limit_reached\`)`,
    AnalyticsError.shareLimitReached('app_01JC3Z8W5Q4M0B7T2K9X1D6F3H', MAX_SHARES),
  )
  @ApiErrors(400, 404, 413, 415)
  create(
    @CurrentPrincipal() p: Principal,
    @CurrentActor() actor: Actor,
    @Param('appId') appId: string,
    @Body() body: CreateAnalyticsShareDto,
  ): Promise<AnalyticsShareDto> {
    return this.shares.create(p.accountId, actor, appId, body);
  }

  @Get()
  @Scopes('apps:read')
  @ApiOperation({ summary: "List an app's shared links", description: `Oldest first, all in one page (at most ${MAX_SHARES}), each with its url.` })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: AnalyticsSharePageDto })
  @ApiErrors(404)
  async list(@CurrentPrincipal() p: Principal, @Param('appId') appId: string): Promise<AnalyticsSharePageDto> {
    return { data: await this.shares.list(p.accountId, appId), nextCursor: null };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('apps:write')
  @ApiOperation({ summary: 'Revoke a shared link', description: 'The link answers 404 from the next request on. Audited as `analytics_share.deleted`.' })
  @ApiParam(APP_ID_PARAM)
  @ApiParam(SHARE_ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async delete(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string, @Param('id') id: string): Promise<void> {
    await this.shares.delete(p.accountId, actor, appId, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppsError } from '../apps/apps.errors.js';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { SplitDto, SplitResultsDto, StartSplitDto } from './dto/split.dto.js';
import { SplitError } from './split.errors.js';
import { SplitService } from './split.service.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const APP_ID = APP_ID_PARAM.example;

@ApiTags('apps')
@Controller('apps/:appId/split')
export class SplitController {
  constructor(private readonly splits: SplitService) {}

  @Put()
  @Scopes('deployments:write')
  @ApiOperation({
    summary: 'Start a split test between deployments',
    description:
      'From now on the published address (`<slug>.<SITES_DOMAIN>`, `/p/<slug>/`, custom domains) answers each visitor with one of the variants, ' +
      'by weight, chosen from their daily visitor id: the same visitor sees the same variant all day, with no cookie or storage. ' +
      'Answers carry `Cache-Control: private` and `Vary: User-Agent`. 2–4 `production` deployments of a published app, weights 1–99 summing to 100. ' +
      'A test already running is ended first (`split.ended`, `endedBy: "replaced"`). Emits `split.started`; audited (`split.started`, and `split.ended` for a test it replaces).',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: SplitDto, description: 'The test, running' })
  @ApiErrorOf(
    'A bad variant list: weights not summing to 100, a deployment repeated, or not a production deployment of the app (the message names the field)',
    RequestError.invalid(['variants weights must sum to 100 (they sum to 90)']),
  )
  @ApiErrorOf('The app is not published (`app_not_published`)', AppsError.notPublished(APP_ID))
  @ApiErrors(404, 413, 415)
  start(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string, @Body() body: StartSplitDto): Promise<SplitDto> {
    return this.splits.start(principal.accountId, actor, appId, body);
  }

  @Get()
  @Scopes('apps:read')
  @ApiOperation({
    summary: 'The running split test and its results',
    description:
      'Per variant: `visitors` and `signups` since `startedAt` (its day from the raw analytics rows after it, later days from the rollups by deployment), ' +
      '`conversionRate` (percent) and `chanceToBeatFirst`: Φ(z) of the pooled two-proportion z-test of its conversion against the first variant’s, ' +
      '`null` when it cannot be computed (either has no visitors, or the pooled rate is 0 or 1). 404 when no test runs.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: SplitResultsDto })
  @ApiErrorOf('The app does not exist, or no test runs (`split_not_found`)', SplitError.notFound(APP_ID))
  get(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string): Promise<SplitResultsDto> {
    return this.splits.get(principal.accountId, appId);
  }

  @Delete()
  @HttpCode(204)
  @Scopes('deployments:write')
  @ApiOperation({
    summary: 'End the split test',
    description:
      'The published deployment serves everyone again. Emits `split.ended` with the results; audited (`split.ended`). Publishing any deployment ends a test too.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiNoContentResponse({ description: 'Ended' })
  @ApiErrorOf('The app does not exist, or no test runs (`split_not_found`)', SplitError.notFound(APP_ID))
  async end(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string): Promise<void> {
    await this.splits.end(principal.accountId, actor, appId);
  }
}

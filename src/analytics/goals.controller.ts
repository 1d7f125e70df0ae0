import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { AnalyticsError } from './analytics.errors.js';
import { CreateGoalDto, GoalDto, GoalPageDto } from './dto/goal.dto.js';
import { GoalsService, MAX_GOALS } from './goals.service.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const GOAL_ID_PARAM = { name: 'id', example: 'goal_01JC3ZK4M6N8P0Q2R4S6T8V0WX' };

/** An app's goals; `breakdown?property=goal` counts them. */
@ApiTags('analytics')
@Controller('apps/:appId/goals')
export class GoalsController {
  constructor(private readonly goals: GoalsService) {}

  @Post()
  @HttpCode(201)
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Add a goal',
    description:
      '`{ "event": "Download" }` counts a custom event; `{ "page": "/pricing" }` or `{ "page": "/blog/*" }` counts pageviews of matching pages (`*` any characters), named `Visit <page>`. ' +
      `At most ${MAX_GOALS} per app. \`Sign-up\` is built in. A goal counts the retained events from before it was made too.`,
  })
  @ApiParam(APP_ID_PARAM)
  @ApiCreatedResponse({ type: GoalDto })
  @ApiErrorOf(
    `The app has a goal of that name (\`goal_exists\`, Sign-up included) or ${MAX_GOALS} goals (\`goal_limit_reached\`)`,
    AnalyticsError.goalExists('Download'),
  )
  @ApiErrors(400, 404, 413, 415)
  create(@CurrentPrincipal() p: Principal, @Param('appId') appId: string, @Body() body: CreateGoalDto): Promise<GoalDto> {
    return this.goals.create(p.accountId, appId, body);
  }

  @Get()
  @Scopes('apps:read')
  @ApiOperation({ summary: "List an app's goals", description: 'Oldest first, all in one page (an app has at most 50); the built-in Sign-up is not listed.' })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: GoalPageDto })
  @ApiErrors(404)
  list(@CurrentPrincipal() p: Principal, @Param('appId') appId: string): Promise<GoalPageDto> {
    return this.goals.list(p.accountId, appId);
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('apps:write')
  @ApiOperation({ summary: 'Delete a goal', description: 'Its events stay; `breakdown?property=goal` no longer lists it.' })
  @ApiParam(APP_ID_PARAM)
  @ApiParam(GOAL_ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async delete(@CurrentPrincipal() p: Principal, @Param('appId') appId: string, @Param('id') id: string): Promise<void> {
    await this.goals.delete(p.accountId, appId, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { AppsService } from './apps.service.js';
import { AppDto, AppPageDto } from './dto/app.dto.js';
import { CreateAppDto, UpdateAppDto } from './dto/create-app.dto.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };

@ApiTags('apps')
@Controller('apps')
export class AppsController {
  constructor(private readonly apps: AppsService) {}

  @Post()
  @HttpCode(201)
  @Scopes('apps:write')
  @ApiOperation({ summary: 'Create an app', description: 'Emits `app.created`.' })
  @ApiCreatedResponse({ type: AppDto, description: 'The new app' })
  @ApiErrors(400, 409, 413, 415)
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateAppDto): Promise<AppDto> {
    return this.apps.create(principal.accountId, body);
  }

  @Get()
  @Scopes('apps:read')
  @ApiOperation({
    summary: "List the account's apps",
    description: 'Newest first. Follow `nextCursor` until it is null to see every app exactly once, even while apps are being created.',
  })
  @ApiOkResponse({ type: AppPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<AppPageDto> {
    return this.apps.list(principal.accountId, toPageRequest(query));
  }

  @Get(':appId')
  @Scopes('apps:read')
  @ApiOperation({ summary: 'Get an app' })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: AppDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string): Promise<AppDto> {
    return this.apps.get(principal.accountId, appId);
  }

  @Patch(':appId')
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Update an app',
    description: 'Changes the fields sent. Emits `app.updated` when something changed. Existing deployments keep their snapshot.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: AppDto, description: 'The app after the update' })
  @ApiErrors(400, 404, 409, 413, 415)
  update(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Body() body: UpdateAppDto): Promise<AppDto> {
    return this.apps.update(principal.accountId, appId, body);
  }

  @Delete(':appId')
  @HttpCode(204)
  @Scopes('apps:write')
  @ApiOperation({ summary: 'Delete an app', description: 'Also deletes its deployments (their pages go away) and its users. Emits `app.deleted`.' })
  @ApiParam(APP_ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async delete(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string): Promise<void> {
    await this.apps.delete(principal.accountId, actor, appId);
  }
}

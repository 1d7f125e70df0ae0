import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AppDto } from '../apps/dto/app.dto.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { PublishDto } from './dto/publish.dto.js';
import { PublishingService } from './publishing.service.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };

@ApiTags('apps')
@Controller('apps/:appId')
export class PublishingController {
  constructor(private readonly publishing: PublishingService) {}

  @Post('publish')
  @HttpCode(200)
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Publish an app (or roll back)',
    description:
      'Points the public address (`publicUrl`: `/p/<slug>/`, or `https://<slug>.<SITES_DOMAIN>/`) at a deployment: the one named, or the newest ' +
      '`production` deployment. Publishing an older deployment is a rollback: nothing is rebuilt, the address serves it at once ' +
      '(a CDN within a minute: `s-maxage=60`). Emits `app.published` with `previousDeploymentId`.',
  })
  @ApiParam(APP_ID_PARAM)
  // Every field is optional: no body at all (or an empty one, with content-type: application/json) is fine.
  @ApiBody({ type: PublishDto, required: false })
  @ApiOkResponse({ type: AppDto, description: 'The app, published' })
  @ApiErrors(400, 404, 413, 415)
  publish(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string, @Body() body: PublishDto): Promise<AppDto> {
    return this.publishing.publish(principal.accountId, actor, appId, body.deploymentId);
  }

  @Post('unpublish')
  @HttpCode(200)
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Unpublish an app',
    description:
      'The public address answers 410 (Gone) until the app is published again; deployment urls keep working. Emits `app.unpublished`. Not published: 409.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: AppDto, description: 'The app, unpublished' })
  @ApiErrors(404, 409)
  unpublish(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string): Promise<AppDto> {
    return this.publishing.unpublish(principal.accountId, actor, appId);
  }
}

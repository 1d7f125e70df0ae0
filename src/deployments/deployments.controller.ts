import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { PlatformRouteConfig } from '../app.setup.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { DeploymentsService } from './deployments.service.js';
import { DeployDto, DeployResultDto } from './dto/deploy.dto.js';
import { DeploymentDto, DeploymentPageDto } from './dto/deployment.dto.js';
import { MAX_FILES } from './manifest.js';

/** A manifest of 20,000 files (paths of a few hundred bytes) takes about 8 MiB, and as many keys. */
const MANIFEST: PlatformRouteConfig = { bodyLimit: 8 * 1024 * 1024, jsonLimits: { maxKeys: MAX_FILES + 1, maxValues: MAX_FILES + 10_000 } };

@ApiTags('deployments')
@Controller()
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Post('apps/deploy')
  @HttpCode(200)
  @RouteConfig(MANIFEST)
  @Scopes('deployments:write')
  @ApiOperation({
    summary: 'Deploy an app to an environment',
    description:
      'Takes an immutable snapshot of the app (name, description, landing page) and serves it, without authentication, at `url` ' +
      '(`{PUBLIC_URL}/sites/<deploymentId>/`). `{PUBLIC_URL}/sites/<appId>/<env>/` always serves the newest deployment ' +
      'of that environment. With `files` (hashes uploaded with `PUT /v1/files/:sha256`) and an optional `config`, the deployment ' +
      "also serves the app's own files, on an origin of its own (`url`: `<scheme>://<label>.<SITES_DOMAIN>/`); a hash this account " +
      'has not uploaded: 400 `files_missing` with `missing` (all of them). Emits `deployment.succeeded`. Counts one `deployments`; ' +
      'past a hard quota 402, nothing deployed. Any 4xx deploys nothing.',
  })
  @ApiOkResponse({ type: DeployResultDto, description: 'Deployed' })
  @ApiErrors(400, 402, 413, 415)
  deploy(@CurrentPrincipal() principal: Principal, @Body() body: DeployDto): Promise<DeployResultDto> {
    return this.deployments.deploy(principal.accountId, body);
  }

  @Get('deployments/:deploymentId')
  @Scopes('apps:read')
  @ApiOperation({ summary: 'Get a deployment', description: 'With the snapshot it serves.' })
  @ApiParam({ name: 'deploymentId', example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K' })
  @ApiOkResponse({ type: DeploymentDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() principal: Principal, @Param('deploymentId') deploymentId: string): Promise<DeploymentDto> {
    return this.deployments.get(principal.accountId, deploymentId);
  }

  @Get('apps/:appId/deployments')
  @Scopes('apps:read')
  @ApiOperation({ summary: "List an app's deployments", description: 'Newest first, every environment.' })
  @ApiParam({ name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' })
  @ApiOkResponse({ type: DeploymentPageDto })
  @ApiErrors(400, 404)
  list(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Query() query: PageQueryDto): Promise<DeploymentPageDto> {
    return this.deployments.listForApp(principal.accountId, appId, toPageRequest(query));
  }
}

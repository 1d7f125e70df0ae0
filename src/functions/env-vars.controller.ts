import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { EnvVarDto, EnvVarListDto, SetEnvVarDto } from './dto/env-var.dto.js';
import { EnvVarsService } from './env-vars.service.js';

const APP = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const ENV = { name: 'env', example: 'production' };
const NAME = { name: 'name', example: 'STRIPE_KEY' };

@ApiTags('functions')
@Controller('apps/:appId/environments/:env/vars')
export class EnvVarsController {
  constructor(private readonly vars: EnvVarsService) {}

  @Put(':name')
  @Scopes('deployments:write')
  @ApiOperation({
    summary: 'Set an environment variable or secret',
    description:
      "For the server code of the app's deployments to this environment, from the next deploy on. `name` matches `[A-Z_][A-Z0-9_]{0,63}` and does not start with `PLATFORM_`; " +
      'the value is at most 64 KiB; at most 100 per environment. A secret is sealed at rest and its value is never shown again. Audited as `env_var.set` (the name only).',
  })
  @ApiParam(APP)
  @ApiParam(ENV)
  @ApiParam(NAME)
  @ApiOkResponse({ type: EnvVarDto })
  @ApiErrors(400, 404, 415)
  set(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('appId') appId: string,
    @Param('env') env: string,
    @Param('name') name: string,
    @Body() body: SetEnvVarDto,
  ): Promise<EnvVarDto> {
    return this.vars.set(principal.accountId, actor, appId, env, name, body);
  }

  @Get()
  @Scopes('apps:read')
  @ApiOperation({ summary: "List an environment's variables", description: 'By name; secrets without their values.' })
  @ApiParam(APP)
  @ApiParam(ENV)
  @ApiOkResponse({ type: EnvVarListDto })
  @ApiErrors(400, 404)
  async list(@CurrentPrincipal() principal: Principal, @Param('appId') appId: string, @Param('env') env: string): Promise<EnvVarListDto> {
    return { data: await this.vars.list(principal.accountId, appId, env) };
  }

  @Delete(':name')
  @HttpCode(204)
  @Scopes('deployments:write')
  @ApiOperation({ summary: 'Delete an environment variable', description: 'From the next deploy on. Audited as `env_var.deleted`.' })
  @ApiParam(APP)
  @ApiParam(ENV)
  @ApiParam(NAME)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 404)
  async remove(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('appId') appId: string,
    @Param('env') env: string,
    @Param('name') name: string,
  ): Promise<void> {
    await this.vars.remove(principal.accountId, actor, appId, env, name);
  }
}

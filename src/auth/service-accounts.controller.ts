import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import {
  CreatedServiceAccountDto,
  CreateServiceAccountDto,
  ServiceAccountDto,
  ServiceAccountListDto,
  UpdateServiceAccountDto,
} from './dto/service-account.dto.js';
import { budgetOf } from './dto/ai-budget.dto.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ServiceAccountsService } from './service-accounts.service.js';
import { ResponseNotKept, SECRET_NOT_KEPT } from '../common/idempotency/idempotent.decorator.js';

@ApiTags('service-accounts')
@Controller('service-accounts')
export class ServiceAccountsController {
  constructor(private readonly serviceAccounts: ServiceAccountsService) {}

  @Post()
  @ResponseNotKept(SECRET_NOT_KEPT)
  @HttpCode(201)
  @Scopes('keys:write')
  @ApiOperation({
    summary: 'Create a service account (OAuth 2.0 client)',
    description:
      "Returns `clientId` and `clientSecret` (once). Exchange them at `POST /v1/oauth/token` for access tokens. Its scopes are checked as an API key's: only scopes the caller holds and the role of the member it acts for allows (403 naming the role). It records that member as its creator: their current role bounds its tokens on every request, and removing the member revokes it. An OAuth access token cannot create one (403). `aiTokensPerDay` / `aiTokensPerMonth` give it an AI budget its tokens share (429 `ai_budget_exhausted` past it).",
  })
  @ApiCreatedResponse({ type: CreatedServiceAccountDto })
  @ApiErrors(400, 415)
  create(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: CreateServiceAccountDto): Promise<CreatedServiceAccountDto> {
    return this.serviceAccounts.createFor(principal, actor, body.name, body.scopes, budgetOf(body));
  }

  @Patch(':id')
  @Scopes('keys:write')
  @ApiOperation({
    summary: "Change a service account's AI budget",
    description:
      '`aiTokensPerDay` / `aiTokensPerMonth`: the most `ai.tokens` the AI calls of its tokens may use together per UTC day and month (null removes a limit; a field left out stays). Past one they answer 429 `ai_budget_exhausted` until the period ends. Takes effect at once, on every instance.',
  })
  @ApiOkResponse({ type: ServiceAccountDto })
  @ApiErrors(400, 404, 415)
  update(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateServiceAccountDto,
  ): Promise<ServiceAccountDto> {
    return this.serviceAccounts.updateBudget(principal.accountId, actor, id, body);
  }

  @Get()
  @Scopes('keys:write')
  @ApiOperation({ summary: "List the account's active service accounts" })
  @ApiOkResponse({ type: ServiceAccountListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<ServiceAccountListDto> {
    return { data: await this.serviceAccounts.list(principal.accountId) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('keys:write')
  @ApiOperation({ summary: 'Revoke a service account and every token it holds' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors(404)
  async revoke(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.serviceAccounts.revoke(principal.accountId, actor, id);
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { ApiKeysService } from './api-keys.service.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { ApiKeyDto, ApiKeyListDto, CreateApiKeyDto, CreatedApiKeyDto, UpdateApiKeyDto } from './dto/api-key.dto.js';
import { budgetOf } from './dto/ai-budget.dto.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ResponseNotKept, SECRET_NOT_KEPT } from '../common/idempotency/idempotent.decorator.js';

@ApiTags('api-keys')
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ResponseNotKept(SECRET_NOT_KEPT)
  @HttpCode(201)
  @Scopes('keys:write')
  @ApiOperation({
    summary: 'Create an API key',
    description:
      'The key is in the response once; only its SHA-256 hash is stored. A key can grant only scopes it holds, and only those the role of the member it acts for allows (403 naming the role); the new key records that member as its creator. An OAuth access token cannot create keys (403). `aiTokensPerDay` / `aiTokensPerMonth` give it an AI budget of its own (429 `ai_budget_exhausted` past it).',
  })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  @ApiErrors(400, 415)
  create(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.apiKeys.createFor(principal, actor, body.name, body.scopes, budgetOf(body));
  }

  @Patch(':id')
  @Scopes('keys:write')
  @ApiOperation({
    summary: "Change an API key's AI budget",
    description:
      '`aiTokensPerDay` / `aiTokensPerMonth`: the most `ai.tokens` its AI calls may use per UTC day and month (null removes a limit; a field left out stays). Its AI calls past one answer 429 `ai_budget_exhausted` until the period ends. Takes effect at once, on every instance.',
  })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiErrors(400, 404, 415)
  update(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string, @Body() body: UpdateApiKeyDto): Promise<ApiKeyDto> {
    return this.apiKeys.updateBudget(principal.accountId, actor, id, body);
  }

  @Get()
  @Scopes('keys:write')
  @ApiOperation({ summary: "List the account's active API keys (prefix and last 4 only)" })
  @ApiOkResponse({ type: ApiKeyListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyListDto> {
    return { data: await this.apiKeys.list(principal.accountId) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('keys:write')
  @ApiOperation({ summary: 'Revoke an API key', description: 'Takes effect at once, on every instance.' })
  @ApiNoContentResponse({ description: 'Revoked' })
  @ApiErrors(404)
  async revoke(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.apiKeys.revoke(principal.accountId, actor, id);
  }
}

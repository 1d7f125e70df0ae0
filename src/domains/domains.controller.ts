import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { DomainsError, DomainsErrorCode } from './domains.errors.js';
import { DomainsService } from './domains.service.js';
import { CreateDomainDto, DomainDto, DomainPageDto } from './dto/domain.dto.js';

const APP_ID_PARAM = { name: 'appId', example: 'app_01JC3Z8W5Q4M0B7T2K9X1D6F3H' };
const DOMAIN_ID_PARAM = { name: 'id', example: 'dom_01JC3ZK4M6N8P0Q2R4S6T8V0WX' };

const TAKEN = DomainsError.taken('www.example.com');

@ApiTags('domains')
@Controller()
export class DomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Post('apps/:appId/domains')
  @HttpCode(201)
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Add a custom domain to an app',
    description:
      'Answers the records to create: the TXT record `verification` (proves you control the name) and the CNAME `target` (sends its visitors here). ' +
      'The domain is `pending` until the TXT record is found — checked every minute for an hour, then hourly, `failed` after 7 days, or now with `POST /v1/domains/{id}/verify`. ' +
      'At most 10 per app. Several accounts may claim a name; the first to verify it owns it.',
  })
  @ApiParam(APP_ID_PARAM)
  @ApiCreatedResponse({ type: DomainDto, description: 'The domain, pending, with the records to create' })
  @ApiErrorOf(
    'Not a DNS name (`hostname_invalid`), an IP address (`hostname_ip`), localhost (`hostname_localhost`), or one of the platform’s own names (`hostname_reserved`)',
    DomainsError.badHostname(DomainsErrorCode.HostnameIp, 'hostname "192.0.2.1" is an IP address; give a DNS name such as www.example.com'),
  )
  @ApiErrorOf(
    'The app has 10 domains (`domain_limit_reached`), the account claimed the name already (`domain_exists`), or another account verified it (`domain_taken`)',
    TAKEN,
  )
  @ApiErrors(404, 413, 415)
  create(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('appId') appId: string, @Body() body: CreateDomainDto): Promise<DomainDto> {
    return this.domains.create(p.accountId, actor, appId, body);
  }

  @Get('apps/:appId/domains')
  @Scopes('apps:read')
  @ApiOperation({ summary: "List an app's custom domains", description: 'Newest first, each with its records and the last check.' })
  @ApiParam(APP_ID_PARAM)
  @ApiOkResponse({ type: DomainPageDto })
  @ApiErrors(400, 404)
  list(@CurrentPrincipal() p: Principal, @Param('appId') appId: string, @Query() query: PageQueryDto): Promise<DomainPageDto> {
    return this.domains.list(p.accountId, appId, toPageRequest(query));
  }

  @Get('domains/:id')
  @Scopes('apps:read')
  @ApiOperation({ summary: 'Get a custom domain' })
  @ApiParam(DOMAIN_ID_PARAM)
  @ApiOkResponse({ type: DomainDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<DomainDto> {
    return this.domains.get(p.accountId, id);
  }

  @Post('domains/:id/verify')
  @HttpCode(200)
  @Scopes('apps:write')
  @ApiOperation({
    summary: "Check a domain's DNS now",
    description:
      'Looks for the TXT record now and answers the domain: `verified` once it holds the value (emits `domain.verified`; the name serves the app from then on), ' +
      'else as it was, with `lastCheck` saying what was found (`no_record`, `wrong_value`, `resolver_error` — a lookup never takes more than a few seconds). ' +
      '`configured` says whether the name points at the target yet. 409 when another account verified the name first.',
  })
  @ApiParam(DOMAIN_ID_PARAM)
  @ApiOkResponse({ type: DomainDto, description: 'The domain after the check' })
  @ApiErrorOf('Another account verified the name first (`domain_taken`)', TAKEN)
  @ApiErrors(404)
  verify(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<DomainDto> {
    return this.domains.verify(p.accountId, actor, id);
  }

  @Delete('domains/:id')
  @HttpCode(204)
  @Scopes('apps:write')
  @ApiOperation({
    summary: 'Delete a custom domain',
    description: 'The name stops serving the app at once, and the TLS proxy gets no new certificate for it. Emits `domain.deleted`.',
  })
  @ApiParam(DOMAIN_ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async delete(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.domains.delete(p.accountId, actor, id);
  }
}

import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { DomainsError } from './domains.errors.js';
import { TlsAskDto } from './dto/domain.dto.js';
import { TlsAsk } from './tls-ask.js';

/** `GET /internal/tls/ask?domain=…` (no auth, outside /v1): the `ask` endpoint of Caddy's on-demand TLS. */
@ApiTags('domains')
@Public()
@Controller('internal/tls')
export class TlsAskController {
  constructor(private readonly tls: TlsAsk) {}

  @Get('ask')
  @ApiOperation({
    summary: "May a TLS proxy get a certificate for this name? (Caddy's on-demand `ask`)",
    description:
      '200 for a name that serves something now: a verified custom domain of a published app, `<slug>.<SITES_DOMAIN>` of a published app, ' +
      "a live deployment's own `<label>.<SITES_DOMAIN>` only when the operator sets TLS_ASK_DEPLOYMENT_LABELS, " +
      "the API's own host; 404 for anything else — pending or lapsed domains, drafts, unpublished apps, made-up names, a missing or malformed `domain`. " +
      'TLS_ASK_RATE_LIMIT_MAX asks per minute per client (429 past it: the proxy takes it as a no). ' +
      'No credentials: only the proxy should reach it, over the internal network; the public proxy refuses `/internal/*`. It answers only yes or no.',
  })
  @ApiQuery({ name: 'domain', required: true, type: String, example: 'www.example.com', description: 'The name of the TLS handshake (SNI)' })
  @ApiOkResponse({ type: TlsAskDto, description: 'The proxy may get (and renew) a certificate for the name' })
  @ApiErrorOf('Not a name this server serves: no certificate', DomainsError.tlsNameUnknown())
  @ApiErrors(429)
  async ask(@Query('domain') domain: unknown, @Req() request: FastifyRequest): Promise<TlsAskDto> {
    const allowed = await this.tls.allows(domain, request.ip);
    if (!allowed) throw DomainsError.tlsNameUnknown();
    return { domain: allowed };
  }
}

import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrorOf } from '../common/http/api-errors.decorator.js';
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
      '200 for a name this server serves: a verified custom domain, `<slug>.<SITES_DOMAIN>` of a published (or unpublished) app, ' +
      "a deployment's own `<label>.<SITES_DOMAIN>`, " +
      "the API's own host; 404 for anything else — pending domains, drafts, made-up names, a missing or malformed `domain`. " +
      'No credentials: point the proxy at it over the internal network. It answers only yes or no.',
  })
  @ApiQuery({ name: 'domain', required: true, type: String, example: 'www.example.com', description: 'The name of the TLS handshake (SNI)' })
  @ApiOkResponse({ type: TlsAskDto, description: 'The proxy may get (and renew) a certificate for the name' })
  @ApiErrorOf('Not a name this server serves: no certificate', DomainsError.tlsNameUnknown())
  async ask(@Query('domain') domain: unknown): Promise<TlsAskDto> {
    const allowed = await this.tls.allows(domain);
    if (!allowed) throw DomainsError.tlsNameUnknown();
    return { domain: allowed };
  }
}

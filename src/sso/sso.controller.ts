import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { RequestContextError } from '../common/request-context/request-context.errors.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { PutSsoDto, SsoSettingsDto } from './dto/sso.dto.js';
import { SsoSettingsService } from './sso-settings.service.js';
import { SsoError } from './sso.errors.js';

/**
 * The account's single sign-on settings. Whoever reads members reads them (`members:read`); only an
 * owner changes them (`members:write` and the owner's role): they decide where every member's
 * sign-in goes, an owner's included.
 */
@ApiTags('sso')
@Controller('sso')
export class SsoController {
  constructor(private readonly sso: SsoSettingsService) {}

  @Get()
  @Scopes('members:read')
  @ApiOperation({ summary: "The account's single sign-on settings", description: 'The client secret is never answered (`clientSecretSet`).' })
  @ApiOkResponse({ type: SsoSettingsDto })
  @ApiErrorOf('`sso_not_configured`: single sign-on is not set up', SsoError.notConfigured())
  get(@CurrentPrincipal() p: Principal): Promise<SsoSettingsDto> {
    return this.sso.get(p.accountId);
  }

  @Put()
  @Scopes('members:write')
  @ApiOperation({
    summary: 'Set up or change single sign-on (OpenID Connect)',
    description:
      "The issuer's discovery document is read first: an issuer that does not answer, or answers for another issuer, is refused (422 `sso_discovery_failed`) and nothing is saved. The issuer must be https (400 `sso_issuer_insecure`; plain http only on 127.0.0.1, ::1 or localhost when the operator sets SSO_ALLOW_INSECURE_LOOPBACK) at a public address (400 `sso_issuer_private`). Each domain must then be proven with a TXT record (`domainProofs`, `POST /v1/sso/domains/{domain}/verify`) before it routes sign-ins; a domain another account proved already → 409 `sso_domain_taken`; a public mail provider's domain (gmail.com…) → 400 `sso_domain_public`. `clientSecret` is required the first time and whenever `issuer` or `clientId` changes (400 `sso_client_secret_required`), else optional (the stored one is kept).",
  })
  @ApiOkResponse({ type: SsoSettingsDto })
  @ApiErrorOf(
    'Invalid fields; `sso_issuer_insecure`: not https; `sso_issuer_private`: an issuer at a private or loopback address; `sso_domain_public`; `sso_client_secret_required`',
    SsoError.issuerInsecure(),
  )
  @ApiErrorOf(
    '`owner_member_required`: no API key or access token changes single sign-on, only an owner signed in to the portal (`sso_owners_only`: a portal session of another role)',
    RequestContextError.ownerMemberRequired("change the account's single sign-on", 'api_key'),
  )
  @ApiErrorOf('`sso_domain_taken`: another account signs in with SSO for that domain', SsoError.domainTaken('acme.com'))
  @ApiErrorOf("`sso_discovery_failed`: the issuer's OpenID configuration could not be read", SsoError.discoveryFailed())
  @ApiErrors(415)
  put(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Body() body: PutSsoDto): Promise<SsoSettingsDto> {
    this.sso.mayChange(p);
    return this.sso.configure(p.accountId, actor, { ...body, required: body.required ?? false });
  }

  @Post('domains/:domain/verify')
  @HttpCode(200)
  @Scopes('members:write')
  @ApiOperation({
    summary: "Check an SSO domain's DNS proof now",
    description:
      'Looks for the TXT record of `domainProofs[].verification` now and answers the settings: the domain `verified` once the record holds the value — from then on its sign-ins go to this provider — ' +
      'else as it was, with `lastCheck` saying what was found. 409 `sso_domain_taken` when another account proved the domain first; 404 `sso_domain_not_listed` when it is not one of the settings’ domains.',
  })
  @ApiParam({ name: 'domain', example: 'acme.com' })
  @ApiOkResponse({ type: SsoSettingsDto, description: 'The settings after the check' })
  @ApiErrorOf('`sso_domain_not_listed`: not one of the domains of the settings (`sso_not_configured`: no settings)', SsoError.domainNotListed('acme.com'))
  @ApiErrorOf('`sso_domain_taken`: another account proved the domain first', SsoError.domainProvenByOther('acme.com'))
  verifyDomain(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('domain') domain: string): Promise<SsoSettingsDto> {
    return this.sso.verifyDomain(p.accountId, actor, domain);
  }

  @Delete()
  @HttpCode(204)
  @Scopes('members:write')
  @ApiOperation({ summary: 'Turn single sign-on off', description: 'The settings and the secret are forgotten; members sign in with passwords again.' })
  @ApiNoContentResponse({ description: 'Turned off' })
  @ApiErrorOf(
    '`owner_member_required`: no API key or access token changes single sign-on, only an owner signed in to the portal (`sso_owners_only`: a portal session of another role)',
    RequestContextError.ownerMemberRequired("change the account's single sign-on", 'api_key'),
  )
  @ApiErrorOf('`sso_not_configured`: single sign-on is not set up', SsoError.notConfigured())
  async remove(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor): Promise<void> {
    this.sso.mayChange(p);
    await this.sso.remove(p.accountId, actor);
  }
}

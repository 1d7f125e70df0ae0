import { Body, Controller, Delete, Get, HttpCode, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorOf, ApiErrors } from '../common/http/api-errors.decorator.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { PutSsoDto, SsoSettingsDto } from './dto/sso.dto.js';
import { SsoSettingsService } from './sso-settings.service.js';
import { SsoError } from './sso.errors.js';

/**
 * The account's single sign-on settings. Who may see and change them is who manages members
 * (`members:read` / `members:write`: admins and owners change them), since they decide who becomes
 * a member and with which role.
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
      "The issuer's discovery document is read first: an issuer that does not answer, or answers for another issuer, is refused (422 `sso_discovery_failed`) and nothing is saved. The issuer must be https (plain http only on 127.0.0.1, ::1 or localhost: 400 `sso_issuer_insecure`). A domain another account's SSO allows already → 409 `sso_domain_taken`. `clientSecret` is required the first time (400 `sso_client_secret_required`), then optional.",
  })
  @ApiOkResponse({ type: SsoSettingsDto })
  @ApiErrorOf('Invalid fields; `sso_issuer_insecure`: an http issuer not on this machine; `sso_client_secret_required`', SsoError.issuerInsecure())
  @ApiErrorOf('`sso_domain_taken`: another account signs in with SSO for that domain', SsoError.domainTaken('acme.com'))
  @ApiErrorOf("`sso_discovery_failed`: the issuer's OpenID configuration could not be read", SsoError.discoveryFailed('no answer within 10 seconds'))
  @ApiErrors(415)
  put(@CurrentPrincipal() p: Principal, @Body() body: PutSsoDto): Promise<SsoSettingsDto> {
    return this.sso.configure(p.accountId, { ...body, required: body.required ?? false });
  }

  @Delete()
  @HttpCode(204)
  @Scopes('members:write')
  @ApiOperation({ summary: 'Turn single sign-on off', description: 'The settings and the secret are forgotten; members sign in with passwords again.' })
  @ApiNoContentResponse({ description: 'Turned off' })
  @ApiErrorOf('`sso_not_configured`: single sign-on is not set up', SsoError.notConfigured())
  async remove(@CurrentPrincipal() p: Principal): Promise<void> {
    await this.sso.remove(p.accountId);
  }
}

import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformRouteConfig } from '../app.setup.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { CurrentPrincipal } from '../common/request-context/request-context.decorators.js';
import { IntrospectionDto, OAuthErrorDto, TokenParamDto, TokenRequestDto, TokenResponseDto } from './dto/oauth.dto.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { OAuthError } from './oauth.errors.js';
import { OAuthService } from './oauth.service.js';
import type { Principal } from '../common/request-context/principal.js';

const FORM_OR_JSON: PlatformRouteConfig = { acceptsForm: true };

@ApiTags('oauth')
@Controller('oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly rateLimit: RateLimitGuard,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Public()
  @RouteConfig(FORM_OR_JSON)
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiOperation({
    summary: 'Get an access token (client credentials grant, RFC 6749 §4.4)',
    description:
      'Client credentials in the body (`client_id`, `client_secret`) or as HTTP Basic. `scope` must be a subset of the ' +
      "service account's scopes. Errors are RFC 6749 §5.2 bodies (`error`, `error_description`) with `code` and `message` beside them.",
  })
  @ApiBody({ type: TokenRequestDto })
  @ApiOkResponse({ type: TokenResponseDto })
  @ApiResponse({ status: 400, type: OAuthErrorDto, description: '`invalid_request`, `invalid_scope`, `unsupported_grant_type`' })
  @ApiResponse({ status: 401, type: OAuthErrorDto, description: '`invalid_client`' })
  // The body is left to the OAuth library: RFC 6749 §3.2 says unknown parameters are ignored, not refused.
  async token(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: Record<string, unknown>,
  ): Promise<TokenResponseDto> {
    try {
      return await this.oauth.issueToken(request, { ...(body ?? {}) });
    } catch (err) {
      // A wrong client secret is a failed authentication: it costs the caller's IP like a bad key.
      if (err instanceof OAuthError && err.reason === 'invalid_client') await this.rateLimit.countFailedAuthentication(request, reply);
      throw err;
    }
  }

  @Post('introspect')
  @HttpCode(200)
  @RouteConfig(FORM_OR_JSON)
  @ApiBearerAuth('bearer')
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiOperation({
    summary: 'Introspect an access token (RFC 7662)',
    description:
      "`{ active: false }` for a token that is unknown, expired, revoked or another account's. A credential may introspect itself; any other token of the account needs `keys:write`.",
  })
  @ApiBody({ type: TokenParamDto })
  @ApiOkResponse({ type: IntrospectionDto })
  @ApiErrors(400, 401, 403, 413, 415, 429)
  introspect(@CurrentPrincipal() principal: Principal, @Body() body: TokenParamDto): Promise<IntrospectionDto> {
    return this.oauth.introspect(principal, body.token);
  }

  @Post('revoke')
  @HttpCode(200)
  @RouteConfig(FORM_OR_JSON)
  @ApiBearerAuth('bearer')
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiOperation({
    summary: 'Revoke an access token (RFC 7009)',
    description:
      "Answers 200 even for an unknown token or another account's. A token may revoke itself; revoking any other token of the account needs `keys:write`.",
  })
  @ApiBody({ type: TokenParamDto })
  @ApiOkResponse({ schema: { type: 'object', example: {} } })
  @ApiErrors(400, 401, 403, 413, 415, 429)
  async revoke(@CurrentPrincipal() principal: Principal, @Body() body: TokenParamDto): Promise<Record<string, never>> {
    await this.oauth.revoke(principal, body.token);
    return {};
  }
}

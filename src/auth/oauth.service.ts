import { HttpException, Injectable } from '@nestjs/common';
import { HttpErrorWithExtras } from '../common/errors/http-errors.js';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyRequest } from 'fastify';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { CredentialCache } from './credential-cache.js';
import { IntrospectionDto, TokenResponseDto } from './dto/oauth.dto.js';
import type { ServiceAccount } from './entities/service-account.entity.js';
import { AccessTokensRepository } from './repositories/access-tokens.repository.js';
import { ALL_SCOPES, SCOPES } from './scopes.js';
import { ACCESS_TOKEN_PREFIX, newSecret, sha256Hex } from './secrets.js';
import { ServiceAccountsService } from './service-accounts.service.js';

/**
 * OAuth 2.0 for service accounts: the client credentials grant (RFC 6749 §4.4) through
 * @node-oauth/oauth2-server, which does the protocol (client authentication in the body or by
 * HTTP Basic, grant type, scope checks, error codes); this class is its storage model.
 * Tokens are opaque `at_…` strings stored as SHA-256 hashes.
 */
@Injectable()
export class OAuthService {
  private readonly server: OAuth2Server;

  constructor(
    private readonly tokens: AccessTokensRepository,
    private readonly serviceAccounts: ServiceAccountsService,
    private readonly cache: CredentialCache,
    config: AppConfig,
  ) {
    const model: OAuth2Server.ClientCredentialsModel = {
      getClient: async (clientId: string, clientSecret: string) => {
        const sa = await this.serviceAccounts.authenticate(clientId, clientSecret);
        return sa ? { id: sa.clientId, grants: ['client_credentials'], serviceAccount: sa } : null;
      },
      getUserFromClient: async (client) => ({ accountId: (client.serviceAccount as ServiceAccount).accountId }),
      validateScope: async (_user, client, requested) => {
        const allowed = (client.serviceAccount as ServiceAccount).scopes;
        if (!requested || requested.length === 0) return allowed;
        const holds = (s: string) => (allowed.includes(ALL_SCOPES) ? s === ALL_SCOPES || (SCOPES as readonly string[]).includes(s) : allowed.includes(s));
        return requested.every(holds) ? requested : false;
      },
      generateAccessToken: async () => newSecret(ACCESS_TOKEN_PREFIX),
      saveToken: async (token, client, user) => {
        const sa = client.serviceAccount as ServiceAccount;
        await this.tokens.insert({
          id: newId('tok'),
          accountId: user.accountId,
          serviceAccountId: sa.id,
          tokenHash: sha256Hex(token.accessToken),
          scopes: token.scope ?? [],
          expiresAt: token.accessTokenExpiresAt!,
          revokedAt: null,
        });
        return { ...token, client, user };
      },
      // Only the token endpoint is used; bearer tokens are verified by CredentialsService.
      getAccessToken: async () => null,
    };
    this.server = new OAuth2Server({ model, accessTokenLifetime: config.OAUTH_TOKEN_TTL_SECONDS, allowBearerTokensInQueryString: false });
  }

  async issueToken(request: FastifyRequest, body: Record<string, unknown>): Promise<TokenResponseDto> {
    // The library also knows the password, code and refresh grants; this server offers only client credentials.
    if (typeof body.grant_type === 'string' && body.grant_type !== 'client_credentials') {
      throw toHttp(new OAuth2Server.UnsupportedGrantTypeError('Unsupported grant type: only client_credentials is supported'), false);
    }
    const oauthRequest = new OAuth2Server.Request({
      method: request.method,
      query: {},
      body,
      // The library accepts only form bodies; the contract also allows JSON, already parsed here.
      headers: { ...(request.headers as Record<string, string>), 'content-type': 'application/x-www-form-urlencoded' },
    });
    try {
      const token = await this.server.token(oauthRequest, new OAuth2Server.Response());
      const expiresIn = Math.round(((token.accessTokenExpiresAt?.getTime() ?? Date.now()) - Date.now()) / 1000);
      return { access_token: token.accessToken, token_type: 'Bearer', expires_in: expiresIn, scope: (token.scope ?? []).join(' ') };
    } catch (err) {
      throw toHttp(err, Boolean(request.headers.authorization));
    }
  }

  /** RFC 7662: `{ active: false }` for anything unknown, expired, revoked, or of another account. */
  async introspect(accountId: string, token: string): Promise<IntrospectionDto> {
    const row = await this.tokens.findByHash(sha256Hex(token));
    if (!row || row.accountId !== accountId || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return { active: false };
    const sa = await this.serviceAccounts.list(accountId).then((all) => all.find((s) => s.id === row.serviceAccountId));
    return {
      active: true,
      scope: row.scopes.join(' '),
      client_id: sa?.clientId,
      token_type: 'Bearer',
      exp: Math.floor(row.expiresAt.getTime() / 1000),
      iat: Math.floor(row.createdAt.getTime() / 1000),
      sub: row.accountId,
    };
  }

  /** RFC 7009: revokes the caller's token; unknown tokens are not an error. */
  async revoke(accountId: string, token: string): Promise<void> {
    const hash = sha256Hex(token);
    if (await this.tokens.revokeByHash(accountId, hash)) await this.cache.evict([hash]);
  }
}

function toHttp(err: unknown, usedBasicAuth: boolean): HttpException {
  const e = err as OAuth2Server.OAuthError;
  const status = typeof e.code === 'number' ? e.code : 500;
  const name = status >= 500 ? 'server_error' : e.name;
  const description = status >= 500 ? 'Internal error; try again later' : e.message;
  // RFC 6749 §5.2: a failed HTTP Basic client authentication answers 401 with a challenge.
  const headers: Record<string, string> = name === 'invalid_client' && usedBasicAuth ? { 'www-authenticate': 'Basic realm="oauth"' } : {};
  const code = name === 'invalid_client' ? 401 : status;
  // The RFC's string `error` takes the place of the envelope's `error: true`; code and message stay.
  return new HttpErrorWithExtras(code, description, { headers, body: { error: name, error_description: description } });
}

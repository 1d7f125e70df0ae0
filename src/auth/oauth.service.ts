import { Injectable } from '@nestjs/common';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { FastifyRequest } from 'fastify';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { CredentialCache } from './credential-cache.js';
import { IntrospectionDto, TokenResponseDto } from './dto/oauth.dto.js';
import type { ServiceAccount } from './entities/service-account.entity.js';
import { AccessTokensRepository } from './repositories/access-tokens.repository.js';
import { OAuthError } from './oauth.errors.js';
import type { Principal } from '../common/request-context/principal.js';
import { ALL_SCOPES, SCOPES } from '../common/request-context/scopes.js';
import { ACCESS_TOKEN_PREFIX, newSecret, sha256Hex } from './secrets.js';
import { requireScopes } from './scopes.guard.js';
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
    const usedBasicAuth = Boolean(request.headers.authorization);
    // RFC 6749 §3.1: a parameter sent twice (an array here) is an invalid request, before the library sees it.
    const repeated = ['grant_type', 'client_id', 'client_secret', 'scope'].filter((p) => body[p] !== undefined && typeof body[p] !== 'string');
    if (repeated.length) throw new OAuthError('invalid_request', `${repeated.join(', ')} must be given once, as a string`);
    // The library also knows the password, code and refresh grants; this server offers only client credentials.
    if (typeof body.grant_type === 'string' && body.grant_type !== 'client_credentials') {
      throw new OAuthError('unsupported_grant_type', 'Unsupported grant type: only client_credentials is supported');
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
      throw OAuthError.from(err, usedBasicAuth);
    }
  }

  /**
   * RFC 7662: `{ active: false }` for anything unknown, expired, revoked, or of another account. A
   * credential may always look at itself; any other token of the account needs `keys:write`.
   */
  async introspect(caller: Principal, token: string): Promise<IntrospectionDto> {
    const row = await this.tokens.findByHash(sha256Hex(token));
    if (!row || row.accountId !== caller.accountId) return { active: false };
    requireKeysWriteUnlessSelf(caller, row.id);
    if (row.revokedAt || row.expiresAt.getTime() <= Date.now()) return { active: false };
    const sa = await this.serviceAccounts.list(caller.accountId).then((all) => all.find((s) => s.id === row.serviceAccountId));
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

  /**
   * RFC 7009: revokes a token of the caller's account; unknown ones (and another account's) are not
   * an error. A token may always revoke itself; revoking another needs `keys:write`.
   */
  async revoke(caller: Principal, token: string): Promise<void> {
    const hash = sha256Hex(token);
    const row = await this.tokens.findByHash(hash);
    if (!row || row.accountId !== caller.accountId) return;
    requireKeysWriteUnlessSelf(caller, row.id);
    if (await this.tokens.revokeByHash(caller.accountId, hash)) await this.cache.evict([hash]);
  }
}

/** Another token than the caller's own takes `keys:write`, held by the credential and allowed by its member's current role. */
function requireKeysWriteUnlessSelf(caller: Principal, tokenId: string): void {
  if (tokenId !== caller.credentialId) requireScopes(caller, ['keys:write']);
}

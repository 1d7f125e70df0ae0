import { Injectable } from '@nestjs/common';
import { CredentialCache } from './credential-cache.js';
import { Principal } from '../common/request-context/principal.js';
import { AccessTokensRepository } from './repositories/access-tokens.repository.js';
import { ApiKeysRepository } from './repositories/api-keys.repository.js';
import { DeploymentCredentialsRepository } from './repositories/deployment-credentials.repository.js';
import { DEPLOYMENT_TOKEN_PREFIX, DEPLOYMENT_TOKEN_SCOPES, DeploymentTokens } from './deployment-tokens.js';
import { ACCESS_TOKEN_PREFIX, API_KEY_PREFIX, sameDigest, sha256Hex } from './secrets.js';

const LAST_USED_WRITE_INTERVAL_MS = 60_000;
/** What passport-http-bearer takes from the header: the scheme in any case, one space, the token. */
const BEARER_HEADER = /^Bearer ([^ ]+)$/i;

/**
 * Turns a bearer string into a Principal: API key or OAuth access token, cached by hash. Each carries
 * the member it acts for (the key's creator, the service account's) with that member's current role;
 * a role change or a removal evicts the member's credentials on every instance. A function instance's
 * PLATFORM_TOKEN is checked against its deployment's standing on every use, never cached: a deploy or a
 * publish on any node ends a superseded deployment's token at once, with nothing to evict.
 */
@Injectable()
export class CredentialsService {
  private readonly lastUsedWritten = new Map<string, number>();

  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly tokens: AccessTokensRepository,
    private readonly cache: CredentialCache,
    private readonly deployments: DeploymentCredentialsRepository,
    private readonly deploymentTokens: DeploymentTokens,
  ) {}

  /**
   * The principal of an `Authorization: Bearer …` header verified in the last 30 s, from memory
   * (no query, no passport round); undefined when not cached — then `verify` decides.
   */
  cached(authorization: string | undefined): Principal | undefined {
    const token = authorization && BEARER_HEADER.exec(authorization)?.[1];
    return token ? this.fromCache(sha256Hex(token)) : undefined;
  }

  async verify(bearer: string): Promise<Principal | null> {
    const hash = sha256Hex(bearer);
    const cached = this.fromCache(hash);
    if (cached) return cached;
    const epoch = this.cache.epoch();
    if (bearer.startsWith(API_KEY_PREFIX)) {
      const key = await this.apiKeys.findActiveByHash(hash);
      if (!key || !sameDigest(key.keyHash, hash)) return null;
      const principal: Principal = {
        accountId: key.accountId,
        credentialId: key.id,
        kind: 'api_key',
        scopes: key.scopes,
        label: key.name,
        aiBudget: { subject: key.id, tokensPerDay: key.aiTokensPerDay, tokensPerMonth: key.aiTokensPerMonth },
      };
      if (key.creator) principal.member = key.creator;
      this.cache.set(hash, principal, epoch);
      this.touch(principal);
      return principal;
    }
    if (bearer.startsWith(ACCESS_TOKEN_PREFIX)) {
      const token = await this.tokens.findLiveByHash(hash);
      if (!token || !sameDigest(token.tokenHash, hash)) return null;
      const principal: Principal = {
        accountId: token.accountId,
        credentialId: token.id,
        kind: 'access_token',
        scopes: token.scopes,
        label: `token of ${token.serviceAccountId}`,
        // The service account's AI budget: its tokens count against it together.
        aiBudget: { subject: token.serviceAccountId, tokensPerDay: token.aiTokensPerDay, tokensPerMonth: token.aiTokensPerMonth },
      };
      // A token acts for the member who created its service account, bounded by their current role.
      if (token.creator) principal.member = token.creator;
      this.cache.set(hash, principal, epoch, token.expiresAt);
      return principal;
    }
    if (bearer.startsWith(DEPLOYMENT_TOKEN_PREFIX)) return this.verifyDeploymentToken(bearer);
    return null;
  }

  /** A function's PLATFORM_TOKEN: its deployment's account, bound to its app, while the deployment serves (newest or published). */
  private async verifyDeploymentToken(bearer: string): Promise<Principal | null> {
    const deploymentId = this.deploymentTokens.deploymentOf(bearer);
    const serving = deploymentId && (await this.deployments.findServing(deploymentId));
    if (!deploymentId || !serving) return null;
    return {
      accountId: serving.accountId,
      credentialId: deploymentId,
      kind: 'deployment_token',
      scopes: [...DEPLOYMENT_TOKEN_SCOPES],
      label: `PLATFORM_TOKEN of ${deploymentId}`,
      appId: serving.appId,
    };
  }

  private fromCache(hash: string): Principal | undefined {
    const principal = this.cache.get(hash);
    if (principal) this.touch(principal);
    return principal;
  }

  /** last_used_at of an API key, written at most once a minute per key and off the request path. */
  private touch(principal: Principal): void {
    if (principal.kind !== 'api_key') return;
    const now = Date.now();
    if (now - (this.lastUsedWritten.get(principal.credentialId) ?? 0) < LAST_USED_WRITE_INTERVAL_MS) return;
    this.lastUsedWritten.set(principal.credentialId, now);
    void this.apiKeys.touch(principal.credentialId, new Date(now)).catch(() => undefined);
  }
}

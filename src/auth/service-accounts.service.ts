import { Injectable } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service.js';
import { AuthError } from './auth.errors.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import { CredentialCache } from './credential-cache.js';
import { RequestError } from '../common/errors/request-errors.js';
import { NOTHING_TO_CHANGE } from './api-keys.service.js';
import { type AiBudget, type AiBudgetDto, NO_AI_BUDGET } from './dto/ai-budget.dto.js';
import { CreatedServiceAccountDto, ServiceAccountDto } from './dto/service-account.dto.js';
import type { ServiceAccount } from './entities/service-account.entity.js';
import { AccessTokensRepository } from './repositories/access-tokens.repository.js';
import { ServiceAccountsRepository } from './repositories/service-accounts.repository.js';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, newSecret, sameDigest, sha256Hex } from './secrets.js';

@Injectable()
export class ServiceAccountsService {
  constructor(
    private readonly db: Transactions,
    private readonly serviceAccounts: ServiceAccountsRepository,
    private readonly tokens: AccessTokensRepository,
    private readonly cache: CredentialCache,
    private readonly audit: AuditLog,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /**
   * A service account made by a caller (an API key, a portal session): its scopes checked as an API
   * key's are (`ApiKeysService.grantable`: within the caller's scopes and its member's role), its
   * creator the member the caller acts for — whose current role then bounds it and its tokens, and
   * whose removal revokes it — and its AI budget, which its tokens share. The client secret is
   * returned once; only its hash is kept.
   */
  async createFor(
    creator: Principal,
    actor: Actor,
    name: string,
    requested: string[] | undefined,
    budget: AiBudget = NO_AI_BUDGET,
  ): Promise<CreatedServiceAccountDto> {
    const scopes = this.apiKeys.grantable(requested, creator);
    const clientSecret = newSecret(CLIENT_SECRET_PREFIX);
    const row = await this.db.run(() => this.insert(creator.accountId, actor, name, scopes, clientSecret, creator.member?.id ?? null, budget));
    return { ...toDto(row), clientSecret };
  }

  private async insert(
    accountId: string,
    actor: Actor,
    name: string,
    scopes: string[],
    clientSecret: string,
    createdBy: string | null,
    budget: AiBudget,
  ): Promise<ServiceAccount> {
    const row = await this.serviceAccounts.insert({
      ...budget,
      id: newId('sa'),
      accountId,
      name,
      scopes,
      clientId: newSecret(CLIENT_ID_PREFIX).slice(0, 36),
      clientSecretHash: sha256Hex(clientSecret),
      createdBy,
      revokedAt: null,
    });
    await this.audit.record(accountId, actor, 'service_account.created', row.id);
    return row;
  }

  async list(accountId: string): Promise<ServiceAccountDto[]> {
    return (await this.serviceAccounts.listActive(accountId)).map(toDto);
  }

  /** The active service account with these client credentials, or null (wrong secret looks like unknown id). */
  async authenticate(clientId: string, clientSecret: string): Promise<ServiceAccount | null> {
    const row = await this.serviceAccounts.findActiveByClientId(clientId);
    const presented = sha256Hex(clientSecret);
    // Compare even when the id is unknown, so both failures take the same time.
    const ok = sameDigest(row?.clientSecretHash ?? presented.replace(/./g, '0'), presented);
    return row && ok ? row : null;
  }

  /**
   * Changes an active service account's AI budget, which its tokens share (a field left out stays;
   * null removes the limit). Its live tokens are verified again on their next request, everywhere.
   */
  async updateBudget(accountId: string, actor: Actor, id: string, change: AiBudgetDto): Promise<ServiceAccountDto> {
    if (change.aiTokensPerDay === undefined && change.aiTokensPerMonth === undefined) throw RequestError.invalid([NOTHING_TO_CHANGE]);
    const { row, tokens } = await this.db.run(async () => {
      const row = await this.serviceAccounts.findActive(accountId, id);
      if (!row) throw AuthError.serviceAccountNotFound(id);
      const budget = {
        aiTokensPerDay: change.aiTokensPerDay === undefined ? row.aiTokensPerDay : change.aiTokensPerDay,
        aiTokensPerMonth: change.aiTokensPerMonth === undefined ? row.aiTokensPerMonth : change.aiTokensPerMonth,
      };
      await this.serviceAccounts.updateBudget(id, budget);
      await this.audit.record(accountId, actor, 'service_account.updated', id);
      return { row: { ...row, ...budget }, tokens: await this.tokens.liveHashesOf(id) };
    });
    await this.cache.evict(tokens);
    return toDto(row);
  }

  /** Revokes the service account and every token it was issued. */
  async revoke(accountId: string, actor: Actor, id: string): Promise<void> {
    const now = new Date();
    const revokedTokens = await this.db.run(async () => {
      const row = await this.serviceAccounts.findActive(accountId, id);
      if (!row) throw AuthError.serviceAccountNotFound(id);
      await this.serviceAccounts.revoke(id, now);
      await this.audit.record(accountId, actor, 'service_account.revoked', id);
      return this.tokens.revokeAllOf([id], now);
    });
    await this.cache.evict(revokedTokens);
  }

  /** In the caller's transaction: revokes the service accounts a member created and their tokens (the member leaves); evicted from caches once it commits. */
  async revokeCreatedBy(accountId: string, actor: Actor, memberId: string): Promise<void> {
    const now = new Date();
    const revoked = await this.serviceAccounts.revokeAllCreatedBy(memberId, now);
    for (const id of revoked) await this.audit.record(accountId, actor, 'service_account.revoked', id);
    const hashes = await this.tokens.revokeAllOf(revoked, now);
    this.db.afterCommit(() => this.cache.evict(hashes));
  }

  /** A member's role changed: the tokens of the service accounts they created are verified again on their next request (on every instance). */
  async forgetCreatedBy(memberId: string): Promise<void> {
    await this.cache.evict(await this.tokens.liveHashesCreatedBy(memberId));
  }
}

function toDto(row: ServiceAccount): ServiceAccountDto {
  return {
    id: row.id,
    name: row.name,
    clientId: row.clientId,
    scopes: row.scopes,
    createdAt: row.createdAt,
    aiTokensPerDay: row.aiTokensPerDay,
    aiTokensPerMonth: row.aiTokensPerMonth,
  };
}

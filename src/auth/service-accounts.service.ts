import { Injectable } from '@nestjs/common';
import { AuthError } from './auth.errors.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
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
  ) {}

  async create(accountId: string, actor: Actor, name: string, scopes: string[], budget: AiBudget = NO_AI_BUDGET): Promise<CreatedServiceAccountDto> {
    const clientSecret = newSecret(CLIENT_SECRET_PREFIX);
    const row = await this.db.run(() => this.insert(accountId, actor, name, scopes, clientSecret, budget));
    return { ...toDto(row), clientSecret };
  }

  private async insert(accountId: string, actor: Actor, name: string, scopes: string[], clientSecret: string, budget: AiBudget): Promise<ServiceAccount> {
    const row = await this.serviceAccounts.insert({
      ...budget,
      id: newId('sa'),
      accountId,
      name,
      scopes,
      clientId: newSecret(CLIENT_ID_PREFIX).slice(0, 36),
      clientSecretHash: sha256Hex(clientSecret),
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
      return this.tokens.revokeAllOf(id, now);
    });
    await this.cache.evict(revokedTokens);
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

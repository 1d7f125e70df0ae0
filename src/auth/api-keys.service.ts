import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { Transactions } from '../database/transactions.js';
import { AuthError } from './auth.errors.js';
import { newId } from '../common/ids.js';
import { CredentialCache } from './credential-cache.js';
import { type AiBudget, type AiBudgetDto, NO_AI_BUDGET } from './dto/ai-budget.dto.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { ApiKey } from './entities/api-key.entity.js';
import { ApiKeysRepository } from './repositories/api-keys.repository.js';
import type { Principal } from '../common/request-context/principal.js';
import { ALL_SCOPES, SCOPES } from '../common/request-context/scopes.js';
import { scopesOfRole } from '../common/request-context/roles.js';
import { API_KEY_PREFIX, newSecret, sha256Hex } from './secrets.js';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly db: Transactions,
    private readonly keys: ApiKeysRepository,
    private readonly cache: CredentialCache,
    private readonly audit: AuditLog,
  ) {}

  /** A key made by a caller (an API key, a portal session): its scopes checked by `grantable`, its creator the member the caller acts for. */
  createFor(creator: Principal, actor: Actor, name: string, requested: string[] | undefined, budget: AiBudget = NO_AI_BUDGET): Promise<CreatedApiKeyDto> {
    return this.create(creator.accountId, actor, name, this.grantable(requested, creator), creator.member?.id ?? null, budget);
  }

  /** Creates a key; the raw key is returned once and only its hash is kept. `createdBy`: the member whose role bounds it (null: the operator's). */
  async create(
    accountId: string,
    actor: Actor,
    name: string,
    scopes: string[],
    createdBy: string | null = null,
    budget: AiBudget = NO_AI_BUDGET,
  ): Promise<CreatedApiKeyDto> {
    const key = newSecret(API_KEY_PREFIX);
    const id = newId('key');
    const row = await this.db.run(async () => {
      const row = await this.insert(id, accountId, name, scopes, key, createdBy, budget);
      await this.audit.record(accountId, actor, 'api_key.created', id);
      return row;
    });
    return { ...toDto(row), key };
  }

  private insert(id: string, accountId: string, name: string, scopes: string[], key: string, createdBy: string | null, budget: AiBudget): Promise<ApiKey> {
    return this.keys.insert({
      ...budget,
      id,
      accountId,
      name,
      scopes,
      keyHash: sha256Hex(key),
      prefix: key.slice(0, 6),
      last4: key.slice(-4),
      lastUsedAt: null,
      revokedAt: null,
      createdBy,
    });
  }

  /**
   * The scopes a credential (API key, service account) created by this one gets: the ones asked
   * for, which the creator must all hold and the role of the member it acts for must allow (by
   * default, the creator's scopes as far as that role allows them). Only API keys and portal
   * sessions create credentials: one made by an OAuth token would outlive the token and its service account.
   */
  grantable(requested: string[] | undefined, creator: Principal): string[] {
    if (creator.kind === 'access_token') throw AuthError.tokenCannotMintCredentials();
    const member = creator.member;
    if (member) {
      if (member.role === null) throw AuthError.roleForbids(null, ['creating credentials']);
      const allowed: readonly string[] = scopesOfRole(member.role);
      const all = allowed.length === SCOPES.length;
      const wanted =
        requested ?? (creator.scopes.includes(ALL_SCOPES) ? (all ? [ALL_SCOPES] : [...allowed]) : creator.scopes.filter((s) => allowed.includes(s)));
      const beyond = wanted.filter((s) => (s === ALL_SCOPES ? !all : !allowed.includes(s)));
      if (beyond.length) throw AuthError.roleForbids(member.role, beyond);
      requested = wanted;
    }
    if (!requested) return creator.scopes;
    if (creator.scopes.includes(ALL_SCOPES)) return requested;
    const missing = requested.filter((s) => !creator.scopes.includes(s));
    if (missing.length) throw AuthError.notGrantable(missing);
    return requested;
  }

  /** A member's role changed or the member left: their keys are verified again on their next request (on every instance). */
  async forgetCreatedBy(memberId: string): Promise<void> {
    await this.cache.evict(await this.keys.activeHashesCreatedBy(memberId));
  }

  /** The account's active keys; `createdBy`: only those this member created (a role that may hold keys of its own only). */
  async list(accountId: string, createdBy?: string): Promise<ApiKeyDto[]> {
    const keys = await this.keys.listActive(accountId);
    return (createdBy === undefined ? keys : keys.filter((k) => k.createdBy === createdBy)).map(toDto);
  }

  /** Revokes an active key; `createdBy`: only if this member created it (else 404, as for a key of another account). */
  async revoke(accountId: string, actor: Actor, id: string, createdBy?: string): Promise<void> {
    const key = await this.db.run(async () => {
      const key = await this.keys.findActive(accountId, id);
      if (!key || (createdBy !== undefined && key.createdBy !== createdBy)) throw AuthError.keyNotFound(id);
      await this.keys.revoke(id);
      await this.audit.record(accountId, actor, 'api_key.revoked', id);
      return key;
    });
    await this.cache.evict([key.keyHash]);
  }

  /**
   * Changes an active key's AI budget (a field left out stays; null removes the limit). Its next
   * request, on every instance, is verified again and carries the new limits.
   */
  async updateBudget(accountId: string, actor: Actor, id: string, change: AiBudgetDto): Promise<ApiKeyDto> {
    if (change.aiTokensPerDay === undefined && change.aiTokensPerMonth === undefined) throw RequestError.invalid([NOTHING_TO_CHANGE]);
    const row = await this.db.run(async () => {
      const key = await this.keys.findActive(accountId, id);
      if (!key) throw AuthError.keyNotFound(id);
      const budget = {
        aiTokensPerDay: change.aiTokensPerDay === undefined ? key.aiTokensPerDay : change.aiTokensPerDay,
        aiTokensPerMonth: change.aiTokensPerMonth === undefined ? key.aiTokensPerMonth : change.aiTokensPerMonth,
      };
      await this.keys.updateBudget(id, budget);
      await this.audit.record(accountId, actor, 'api_key.updated', id);
      return { ...key, ...budget };
    });
    await this.cache.evict([row.keyHash]);
    return toDto(row);
  }

  /** In the caller's transaction: revokes the keys a member created (the member leaves); evicted from caches once it commits. */
  async revokeCreatedBy(accountId: string, actor: Actor, memberId: string): Promise<void> {
    const revoked = await this.keys.revokeAllCreatedBy(memberId);
    for (const key of revoked) await this.audit.record(accountId, actor, 'api_key.revoked', key.id);
    this.db.afterCommit(() => this.cache.evict(revoked.map((k) => k.keyHash)));
  }
}

/** What a PATCH of a credential's AI budget must name (400 without either). */
export const NOTHING_TO_CHANGE = 'aiTokensPerDay or aiTokensPerMonth must be given (null removes a limit)';

function toDto(row: ApiKey): ApiKeyDto {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    last4: row.last4,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    aiTokensPerDay: row.aiTokensPerDay,
    aiTokensPerMonth: row.aiTokensPerMonth,
  };
}

import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { Transactions } from '../../database/transactions.js';
import type { Role } from '../../common/request-context/roles.js';
import { AccessToken } from '../entities/access-token.entity.js';

/** What verifying a token needs: the token and the current role of the member who created its service account. */
export interface VerifiedToken extends Pick<AccessToken, 'id' | 'accountId' | 'serviceAccountId' | 'scopes' | 'tokenHash' | 'expiresAt'> {
  /** `role` null: that member was removed; undefined: a service account no member created. */
  creator?: { id: string; role: Role | null };
  /** Its service account's AI budget, which the account's tokens share. */
  aiTokensPerDay: number | null;
  aiTokensPerMonth: number | null;
}

/** The access_tokens table (OAuth bearer tokens), stored as SHA-256 hashes only. */
@Injectable()
export class AccessTokensRepository {
  constructor(private readonly db: Transactions) {}

  private get tokens() {
    return this.db.manager.getRepository(AccessToken);
  }

  async insert(row: Omit<AccessToken, 'createdAt'>): Promise<void> {
    await this.tokens.insert(row);
  }

  /**
   * The token with this hash if neither it nor its service account is revoked and it has not expired,
   * with the current role of the member who created the service account (read on every verification,
   * as an API key's creator's is).
   */
  async findLiveByHash(tokenHash: string, now = new Date()): Promise<VerifiedToken | null> {
    const rows = await this.db.query<{
      id: string;
      account_id: string;
      service_account_id: string;
      scopes: string[];
      token_hash: string;
      expires_at: Date;
      created_by: string | null;
      role: Role | null;
      ai_tokens_per_day: number | null;
      ai_tokens_per_month: number | null;
    }>(
      `SELECT t.id, t.account_id, t.service_account_id, t.scopes, t.token_hash, t.expires_at, s.created_by, m.role,
              s.ai_tokens_per_day, s.ai_tokens_per_month
         FROM access_tokens t
         JOIN service_accounts s ON s.id = t.service_account_id AND s.revoked_at IS NULL
         LEFT JOIN members m ON m.id = s.created_by
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND t.expires_at > $2`,
      [tokenHash, now],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      accountId: row.account_id,
      serviceAccountId: row.service_account_id,
      scopes: row.scopes,
      tokenHash: row.token_hash,
      expiresAt: row.expires_at,
      creator: row.created_by === null ? undefined : { id: row.created_by, role: row.role },
      aiTokensPerDay: row.ai_tokens_per_day,
      aiTokensPerMonth: row.ai_tokens_per_month,
    };
  }

  /** The hashes of the live tokens of the service accounts a member created (to evict them from caches when the member's role changes). */
  async liveHashesCreatedBy(memberId: string): Promise<string[]> {
    const rows = await this.db.query<{ token_hash: string }>(
      `SELECT t.token_hash FROM access_tokens t JOIN service_accounts s ON s.id = t.service_account_id
        WHERE s.created_by = $1 AND t.revoked_at IS NULL AND t.expires_at > now()`,
      [memberId],
    );
    return rows.map((r) => r.token_hash);
  }

  findByHash(tokenHash: string): Promise<AccessToken | null> {
    return this.tokens.findOneBy({ tokenHash });
  }

  /** Revokes the account's token with this hash; false when there was none. */
  async revokeByHash(accountId: string, tokenHash: string, at = new Date()): Promise<boolean> {
    const result = await this.tokens.update({ tokenHash, accountId, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Revokes every live token of these service accounts; returns their hashes (to evict them from caches). */
  async revokeAllOf(serviceAccountIds: string[], at: Date): Promise<string[]> {
    if (serviceAccountIds.length === 0) return [];
    const result = await this.tokens
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('service_account_id IN (:...serviceAccountIds) AND revoked_at IS NULL', { serviceAccountIds })
      .returning('token_hash')
      .execute();
    return (result.raw as Array<{ token_hash: string }>).map((r) => r.token_hash);
  }

  /** The hashes of a service account's live tokens (to evict them from caches when what they carry changes). */
  async liveHashesOf(serviceAccountId: string): Promise<string[]> {
    const rows = await this.db.query<{ token_hash: string }>(
      `SELECT token_hash FROM access_tokens WHERE service_account_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [serviceAccountId],
    );
    return rows.map((r) => r.token_hash);
  }
}

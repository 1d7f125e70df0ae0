import { Injectable } from '@nestjs/common';
import { IsNull, MoreThan } from 'typeorm';
import { Transactions } from '../../database/transactions.js';
import { AccessToken } from '../entities/access-token.entity.js';

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

  /** The token with this hash if it is neither revoked nor expired. */
  findLiveByHash(tokenHash: string, now = new Date()): Promise<AccessToken | null> {
    return this.tokens.findOneBy({ tokenHash, revokedAt: IsNull(), expiresAt: MoreThan(now) });
  }

  findByHash(tokenHash: string): Promise<AccessToken | null> {
    return this.tokens.findOneBy({ tokenHash });
  }

  /** Revokes the account's token with this hash; false when there was none. */
  async revokeByHash(accountId: string, tokenHash: string, at = new Date()): Promise<boolean> {
    const result = await this.tokens.update({ tokenHash, accountId, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Revokes every live token of a service account; returns their hashes (to evict them from caches). */
  async revokeAllOf(serviceAccountId: string, at: Date): Promise<string[]> {
    const result = await this.tokens
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('service_account_id = :serviceAccountId AND revoked_at IS NULL', { serviceAccountId })
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

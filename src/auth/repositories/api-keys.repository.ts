import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { insertRow } from '../../database/insert-row.js';
import { Transactions } from '../../database/transactions.js';
import { ApiKey } from '../entities/api-key.entity.js';
import type { Role } from '../../common/request-context/roles.js';

/** What verifying a key needs: the key and its creator's current role. */
export interface VerifiedKey extends Pick<ApiKey, 'id' | 'accountId' | 'name' | 'scopes' | 'keyHash' | 'aiTokensPerDay' | 'aiTokensPerMonth'> {
  creator?: { id: string; role: Role | null };
}

/** The api_keys table. Keys are stored as SHA-256 hashes only. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly db: Transactions) {}

  private get keys() {
    return this.db.manager.getRepository(ApiKey);
  }

  insert(key: Omit<ApiKey, 'createdAt'>): Promise<ApiKey> {
    return insertRow(this.db.manager, ApiKey, key);
  }

  /** The active key with this hash, and the role of the member who created it (null when that member is gone; undefined: no creator). */
  async findActiveByHash(keyHash: string): Promise<VerifiedKey | null> {
    const rows = await this.db.query<{
      id: string;
      account_id: string;
      name: string;
      scopes: string[];
      key_hash: string;
      created_by: string | null;
      role: Role | null;
      ai_tokens_per_day: number | null;
      ai_tokens_per_month: number | null;
    }>(
      `SELECT k.id, k.account_id, k.name, k.scopes, k.key_hash, k.created_by, m.role, k.ai_tokens_per_day, k.ai_tokens_per_month
         FROM api_keys k LEFT JOIN members m ON m.id = k.created_by
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [keyHash],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      scopes: row.scopes,
      keyHash: row.key_hash,
      aiTokensPerDay: row.ai_tokens_per_day,
      aiTokensPerMonth: row.ai_tokens_per_month,
      creator: row.created_by === null ? undefined : { id: row.created_by, role: row.role },
    };
  }

  async activeHashesCreatedBy(memberId: string): Promise<string[]> {
    const rows = await this.db.query<{ key_hash: string }>(`SELECT key_hash FROM api_keys WHERE created_by = $1 AND revoked_at IS NULL`, [memberId]);
    return rows.map((r) => r.key_hash);
  }

  /** Revokes every active key a member created; answers their hashes (to evict them from caches). */
  async revokeAllCreatedBy(memberId: string, at = new Date()): Promise<Array<{ id: string; name: string; keyHash: string }>> {
    const rows = await this.db.query<{ id: string; name: string; key_hash: string }>(
      `UPDATE api_keys SET revoked_at = $2 WHERE created_by = $1 AND revoked_at IS NULL RETURNING id, name, key_hash`,
      [memberId, at],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, keyHash: r.key_hash }));
  }

  findActive(accountId: string, id: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ id, accountId, revokedAt: IsNull() });
  }

  listActive(accountId: string): Promise<ApiKey[]> {
    return this.keys.find({ where: { accountId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  async revoke(id: string, at = new Date()): Promise<void> {
    await this.keys.update({ id }, { revokedAt: at });
  }

  async updateBudget(id: string, budget: Pick<ApiKey, 'aiTokensPerDay' | 'aiTokensPerMonth'>): Promise<void> {
    await this.keys.update({ id }, budget);
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: at });
  }
}

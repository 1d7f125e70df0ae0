import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { insertRow } from '../../database/insert-row.js';
import { Transactions } from '../../database/transactions.js';
import { ApiKey } from '../entities/api-key.entity.js';

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

  findActiveByHash(keyHash: string): Promise<ApiKey | null> {
    return this.keys.findOneBy({ keyHash, revokedAt: IsNull() });
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

  async touch(id: string, at: Date): Promise<void> {
    await this.keys.update({ id }, { lastUsedAt: at });
  }
}

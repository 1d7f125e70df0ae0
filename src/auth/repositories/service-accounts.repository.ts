import { Injectable } from '@nestjs/common';
import { IsNull } from 'typeorm';
import { insertRow } from '../../database/insert-row.js';
import { Transactions } from '../../database/transactions.js';
import { ServiceAccount } from '../entities/service-account.entity.js';

/** The service_accounts table (OAuth clients). Client secrets are stored as SHA-256 hashes only. */
@Injectable()
export class ServiceAccountsRepository {
  constructor(private readonly db: Transactions) {}

  private get serviceAccounts() {
    return this.db.manager.getRepository(ServiceAccount);
  }

  insert(row: Omit<ServiceAccount, 'createdAt'>): Promise<ServiceAccount> {
    return insertRow(this.db.manager, ServiceAccount, row);
  }

  findActive(accountId: string, id: string): Promise<ServiceAccount | null> {
    return this.serviceAccounts.findOneBy({ id, accountId, revokedAt: IsNull() });
  }

  findActiveByClientId(clientId: string): Promise<ServiceAccount | null> {
    return this.serviceAccounts.findOneBy({ clientId, revokedAt: IsNull() });
  }

  listActive(accountId: string): Promise<ServiceAccount[]> {
    return this.serviceAccounts.find({ where: { accountId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  async revoke(id: string, at: Date): Promise<void> {
    await this.serviceAccounts.update({ id }, { revokedAt: at });
  }

  async updateBudget(id: string, budget: Pick<ServiceAccount, 'aiTokensPerDay' | 'aiTokensPerMonth'>): Promise<void> {
    await this.serviceAccounts.update({ id }, budget);
  }

  /** Revokes every active service account a member created; answers their ids. */
  async revokeAllCreatedBy(memberId: string, at: Date): Promise<string[]> {
    const result = await this.serviceAccounts
      .createQueryBuilder()
      .update()
      .set({ revokedAt: at })
      .where('created_by = :memberId AND revoked_at IS NULL', { memberId })
      .returning('id')
      .execute();
    return (result.raw as Array<{ id: string }>).map((r) => r.id);
  }
}

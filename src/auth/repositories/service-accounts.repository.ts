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

  /** The AI budget of a service account (its tokens' principals carry it); null when it is gone. */
  async budgetOf(id: string): Promise<Pick<ServiceAccount, 'aiTokensPerDay' | 'aiTokensPerMonth'> | null> {
    const [row] = await this.db.query<{ ai_tokens_per_day: number | null; ai_tokens_per_month: number | null }>(
      `SELECT ai_tokens_per_day, ai_tokens_per_month FROM service_accounts WHERE id = $1`,
      [id],
    );
    return row ? { aiTokensPerDay: row.ai_tokens_per_day, aiTokensPerMonth: row.ai_tokens_per_month } : null;
  }
}

import { Injectable } from '@nestjs/common';
import { insertRow } from '../database/insert-row.js';
import { Transactions } from '../database/transactions.js';
import { Account } from './account.entity.js';

/** The accounts table. */
@Injectable()
export class AccountsRepository {
  constructor(private readonly db: Transactions) {}

  insert(account: Pick<Account, 'id' | 'email'>): Promise<Account> {
    return insertRow(this.db.manager, Account, account);
  }

  /** The account's first member: its login, the owner (see src/members/). */
  async insertOwner(memberId: string, accountId: string, email: string): Promise<void> {
    await this.db.query(`INSERT INTO members (id, account_id, email, role) VALUES ($1, $2, $3, 'owner')`, [memberId, accountId, email]);
  }

  findById(id: string): Promise<Account | null> {
    return this.db.manager.getRepository(Account).findOneBy({ id });
  }

  /** The account, locked for an update of it in the caller's transaction. */
  findForUpdate(id: string): Promise<Account | null> {
    return this.db.manager.getRepository(Account).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async setPlan(id: string, plan: string): Promise<void> {
    await this.db.manager.getRepository(Account).update({ id }, { plan });
  }

  /** Ids of the accounts created before `createdBefore`, a page at a time in id order (for jobs over all accounts). */
  async idsAfter(after: string, limit: number, createdBefore: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(`SELECT id FROM accounts WHERE id > $1 AND created_at < $3 ORDER BY id LIMIT $2`, [
      after,
      limit,
      createdBefore,
    ]);
    return rows.map((r) => r.id);
  }
}

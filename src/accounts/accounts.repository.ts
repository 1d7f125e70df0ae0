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

  findById(id: string): Promise<Account | null> {
    return this.db.manager.getRepository(Account).findOneBy({ id });
  }
}

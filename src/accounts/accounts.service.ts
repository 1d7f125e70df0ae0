import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import type { Account } from './account.entity.js';
import { AccountsError } from './accounts.errors.js';
import { AccountsRepository } from './accounts.repository.js';

@Injectable()
export class AccountsService {
  constructor(
    private readonly db: Transactions,
    private readonly accounts: AccountsRepository,
  ) {}

  /** A new account and its owner: the member who signs in with the account's e-mail. */
  async create(email: string): Promise<Account> {
    const normalised = email.trim().toLowerCase();
    try {
      return await this.db.run(async () => {
        const account = await this.accounts.insert({ id: newId('acc'), email: normalised });
        await this.accounts.insertOwner(newId('mem'), account.id, normalised);
        return account;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AccountsError.emailTaken();
      throw err;
    }
  }

  async get(accountId: string): Promise<Account> {
    const account = await this.accounts.findById(accountId);
    if (!account) throw AccountsError.notFound(accountId);
    return account;
  }

  /** Moves the account to `plan` in the caller's transaction; answers the plan it was on. */
  async changePlan(accountId: string, plan: string): Promise<string> {
    const account = await this.accounts.findForUpdate(accountId);
    if (!account) throw AccountsError.notFound(accountId);
    await this.accounts.setPlan(accountId, plan);
    return account.plan;
  }

  idsAfter(after: string, limit: number, createdBefore: string): Promise<string[]> {
    return this.accounts.idsAfter(after, limit, createdBefore);
  }
}

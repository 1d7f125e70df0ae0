import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import type { Account } from './account.entity.js';
import { AccountsError } from './accounts.errors.js';
import { AccountsRepository } from './accounts.repository.js';

@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  async create(email: string): Promise<Account> {
    const normalised = email.trim().toLowerCase();
    try {
      return await this.accounts.insert({ id: newId('acc'), email: normalised });
    } catch (err) {
      if (isUniqueViolation(err)) throw AccountsError.emailTaken();
      throw err;
    }
  }
}

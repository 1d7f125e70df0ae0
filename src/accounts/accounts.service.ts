import { ConflictException, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newId } from '../common/ids.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Account } from './account.entity.js';

@Injectable()
export class AccountsService {
  constructor(@InjectRepository(Account) private readonly accounts: Repository<Account>) {}

  async create(email: string): Promise<Account> {
    const account = this.accounts.create({ id: newId('acc'), email: email.trim().toLowerCase() });
    try {
      return await this.accounts.save(account);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ConflictException(`An account with email ${account.email} already exists`);
      throw err;
    }
  }
}

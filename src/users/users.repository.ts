import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import { insertRow } from '../database/insert-row.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { AppUser } from './user.entity.js';

/** The users table (people who signed up to apps). */
@Injectable()
export class UsersRepository {
  constructor(private readonly db: Transactions) {}

  private get users() {
    return this.db.manager.getRepository(AppUser);
  }

  insert(user: Pick<AppUser, 'id' | 'accountId' | 'appId' | 'email'>): Promise<AppUser> {
    return insertRow(this.db.manager, AppUser, user);
  }

  findOwned(accountId: string, id: string): Promise<AppUser | null> {
    return this.users.findOneBy({ accountId, id });
  }

  list(accountId: string, appId: string | undefined, page: PageRequest): Promise<AppUser[]> {
    const qb = this.users.createQueryBuilder('user').where('user.accountId = :accountId', { accountId });
    if (appId !== undefined) qb.andWhere('user.appId = :appId', { appId });
    return applyKeyset(qb, 'user', page).getMany();
  }

  /** Deletes every user of the app; returns their ids. */
  async deleteAllOfApp(accountId: string, appId: string): Promise<string[]> {
    const result = await this.users
      .createQueryBuilder()
      .delete()
      .where('account_id = :accountId AND app_id = :appId', { accountId, appId })
      .returning('id')
      .execute();
    return (result.raw as Array<{ id: string }>).map((r) => r.id);
  }

  /** Deletes and returns the row (so the caller knows its app), or null. */
  async delete(accountId: string, id: string): Promise<Pick<AppUser, 'id' | 'appId'> | null> {
    const result = await this.users
      .createQueryBuilder()
      .delete()
      .where('account_id = :accountId AND id = :id', { accountId, id })
      .returning('id, app_id')
      .execute();
    const rows = result.raw as Array<{ id: string; app_id: string }>;
    return rows[0] ? { id: rows[0].id, appId: rows[0].app_id } : null;
  }
}

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

  /**
   * Inserts the users whose (app, e-mail) is not taken yet, in one statement (plain SQL: the sign-up
   * form's batches); an address already signed up — before, or earlier in the same list — is skipped.
   * Answers the rows inserted.
   */
  async insertNew(users: Array<Pick<AppUser, 'id' | 'accountId' | 'appId' | 'email'>>): Promise<AppUser[]> {
    if (users.length === 0) return [];
    const rows = await this.db.query<{ id: string; account_id: string; app_id: string; email: string; created_at: Date }>(
      `INSERT INTO users (id, account_id, app_id, email)
       SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::varchar[], $4::varchar[])
       ON CONFLICT (app_id, email) DO NOTHING
       RETURNING id, account_id, app_id, email, created_at`,
      [users.map((u) => u.id), users.map((u) => u.accountId), users.map((u) => u.appId), users.map((u) => u.email)],
    );
    return rows.map((r) => Object.assign(new AppUser(), { id: r.id, accountId: r.account_id, appId: r.app_id, email: r.email, createdAt: r.created_at }));
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

  /** Deletes and returns the row (so the caller knows its app), or null; of `appId` only when given. */
  async delete(accountId: string, id: string, appId?: string): Promise<Pick<AppUser, 'id' | 'appId'> | null> {
    const query = this.users.createQueryBuilder().delete().where('account_id = :accountId AND id = :id', { accountId, id });
    if (appId !== undefined) query.andWhere('app_id = :appId', { appId });
    const result = await query.returning('id, app_id').execute();
    const rows = result.raw as Array<{ id: string; app_id: string }>;
    return rows[0] ? { id: rows[0].id, appId: rows[0].app_id } : null;
  }
}

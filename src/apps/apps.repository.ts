import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import { insertRow } from '../database/insert-row.js';
import { Transactions } from '../database/transactions.js';
import { App } from './app.entity.js';

interface AppRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The apps table. Inside `Transactions.run()` every method runs in that transaction. */
@Injectable()
export class AppsRepository {
  constructor(private readonly db: Transactions) {}

  private get apps() {
    return this.db.manager.getRepository(App);
  }

  insert(app: Pick<App, 'id' | 'accountId' | 'name' | 'description'>): Promise<App> {
    return insertRow(this.db.manager, App, app);
  }

  findOwned(accountId: string, id: string): Promise<App | null> {
    return this.apps.findOneBy({ accountId, id });
  }

  /** FOR UPDATE: the row to change. */
  findOwnedForUpdate(accountId: string, id: string): Promise<App | null> {
    return this.apps.createQueryBuilder('app').setLock('pessimistic_write').where('app.accountId = :accountId AND app.id = :id', { accountId, id }).getOne();
  }

  /** FOR SHARE: the app stays until the caller commits what it hangs on it (a deployment, a user). */
  findOwnedForShare(accountId: string, id: string): Promise<App | null> {
    return this.apps.createQueryBuilder('app').setLock('pessimistic_read').where('app.accountId = :accountId AND app.id = :id', { accountId, id }).getOne();
  }

  /**
   * The hottest read of the API (see bench/): one plain SQL statement, rows mapped by hand, because
   * TypeORM's query building and entity hydration cost more than the query itself here. Same keyset
   * as applyKeyset: (created_at, id) descending, one row more than the limit.
   */
  async list(accountId: string, page: PageRequest): Promise<App[]> {
    const after = page.after ? 'AND (created_at, id) < ($3, $4)' : '';
    const rows: AppRow[] = await this.db.manager.query(
      `SELECT id, account_id, name, description, created_at, updated_at FROM apps
        WHERE account_id = $1 ${after} ORDER BY created_at DESC, id DESC LIMIT $2`,
      page.after ? [accountId, page.limit + 1, page.after.createdAt, page.after.id] : [accountId, page.limit + 1],
    );
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, name: r.name, description: r.description, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  save(app: App): Promise<App> {
    return this.apps.save(app);
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const result = await this.apps.delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PageRequest } from '../common/pagination/pagination.js';
import { insertRow } from '../database/insert-row.js';
import { App } from './app.entity.js';

interface AppRow {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The apps table. Methods taking a manager run in the caller's transaction. */
@Injectable()
export class AppsRepository {
  constructor(@InjectRepository(App) private readonly apps: Repository<App>) {}

  insert(m: EntityManager, app: Pick<App, 'id' | 'accountId' | 'name' | 'description'>): Promise<App> {
    return insertRow(m, App, app);
  }

  findOwned(accountId: string, id: string): Promise<App | null> {
    return this.apps.findOneBy({ accountId, id });
  }

  /** FOR UPDATE: the row to change. */
  findOwnedForUpdate(m: EntityManager, accountId: string, id: string): Promise<App | null> {
    return m.getRepository(App).createQueryBuilder('app').setLock('pessimistic_write')
      .where('app.accountId = :accountId AND app.id = :id', { accountId, id }).getOne();
  }

  /** FOR SHARE: the app stays until the caller commits what it hangs on it (a deployment, a user). */
  findOwnedForShare(m: EntityManager, accountId: string, id: string): Promise<App | null> {
    return m.getRepository(App).createQueryBuilder('app').setLock('pessimistic_read')
      .where('app.accountId = :accountId AND app.id = :id', { accountId, id }).getOne();
  }

  /**
   * The hottest read of the API (see bench/): one plain SQL statement, rows mapped by hand, because
   * TypeORM's query building and entity hydration cost more than the query itself here. Same keyset
   * as applyKeyset: (created_at, id) descending, one row more than the limit.
   */
  async list(accountId: string, page: PageRequest): Promise<App[]> {
    const after = page.after ? 'AND (created_at, id) < ($3, $4)' : '';
    const rows: AppRow[] = await this.apps.query(
      `SELECT id, account_id, name, description, created_at, updated_at FROM apps
        WHERE account_id = $1 ${after} ORDER BY created_at DESC, id DESC LIMIT $2`,
      page.after ? [accountId, page.limit + 1, page.after.createdAt, page.after.id] : [accountId, page.limit + 1],
    );
    return rows.map((r) => ({ id: r.id, accountId: r.account_id, name: r.name, description: r.description, createdAt: r.created_at, updatedAt: r.updated_at }));
  }

  save(m: EntityManager, app: App): Promise<App> {
    return m.getRepository(App).save(app);
  }

  async delete(m: EntityManager, accountId: string, id: string): Promise<boolean> {
    const result = await m.getRepository(App).delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }
}

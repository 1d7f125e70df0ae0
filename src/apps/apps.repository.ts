import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { applyKeyset, PageRequest } from '../common/pagination/pagination.js';
import { App } from './app.entity.js';

/** The apps table. Methods taking a manager run in the caller's transaction. */
@Injectable()
export class AppsRepository {
  constructor(@InjectRepository(App) private readonly apps: Repository<App>) {}

  insert(m: EntityManager, app: Pick<App, 'id' | 'accountId' | 'name' | 'description'>): Promise<App> {
    return m.getRepository(App).save(m.getRepository(App).create(app));
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

  list(accountId: string, page: PageRequest): Promise<App[]> {
    const qb = this.apps.createQueryBuilder('app').where('app.accountId = :accountId', { accountId });
    return applyKeyset(qb, 'app', page).getMany();
  }

  save(m: EntityManager, app: App): Promise<App> {
    return m.getRepository(App).save(app);
  }

  async delete(m: EntityManager, accountId: string, id: string): Promise<boolean> {
    const result = await m.getRepository(App).delete({ accountId, id });
    return (result.affected ?? 0) > 0;
  }
}

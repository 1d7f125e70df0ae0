import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { Transactions } from '../database/transactions.js';
import type { AppChange } from '../events/domain-events.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { App } from './app.entity.js';
import { AppErasure } from './app-erasure.js';
import { AppsError } from './apps.errors.js';
import { AppsRepository } from './apps.repository.js';
import { AppDto, toAppDto } from './dto/app.dto.js';

export interface AppChanges {
  name?: string;
  description?: string | null;
}

@Injectable()
export class AppsService {
  constructor(
    private readonly db: Transactions,
    private readonly apps: AppsRepository,
    private readonly events: DomainEvents,
    private readonly erasure: AppErasure,
  ) {}

  async create(accountId: string, input: { name: string; description?: string | null }): Promise<AppDto> {
    return this.db.run(async () => {
      const dto = toAppDto(await this.apps.insert({ id: newId('app'), accountId, name: input.name, description: input.description ?? null }));
      await this.events.raise('app.created', accountId, dto);
      return dto;
    });
  }

  async list(accountId: string, page: PageRequest): Promise<Page<AppDto>> {
    return toPage(await this.apps.list(accountId, page), page, toAppDto);
  }

  async get(accountId: string, appId: string): Promise<AppDto> {
    return toAppDto(await this.requireOwned(accountId, appId));
  }

  async update(accountId: string, appId: string, changes: AppChanges): Promise<AppDto> {
    const fields = (['name', 'description'] as const).filter((f) => changes[f] !== undefined);
    if (fields.length === 0) throw AppsError.nothingToUpdate(['name', 'description']);
    return this.db.run(async () => {
      const row = await this.apps.findOwnedForUpdate(accountId, appId);
      if (!row) throw AppsError.notFound(appId);
      const previous: AppChanges = {};
      for (const field of fields) {
        if (row[field] === changes[field]) continue;
        Object.assign(previous, { [field]: row[field] });
        Object.assign(row, { [field]: changes[field] });
      }
      // Nothing differs: no write, no event.
      if (Object.keys(previous).length === 0) return toAppDto(row);
      const dto = toAppDto(await this.apps.save(row));
      await this.events.raise('app.updated', accountId, { ...dto, changed: Object.keys(previous) as AppChange[], previousAttributes: previous });
      return dto;
    });
  }

  /**
   * In the caller's transaction: something hung on the app (its landing page) changed. The app's
   * `updatedAt` moves and `app.updated` says what changed.
   */
  async touch(accountId: string, appId: string, changed: AppChange): Promise<AppDto> {
    const row = await this.apps.findOwnedForUpdate(accountId, appId);
    if (!row) throw AppsError.notFound(appId);
    row.updatedAt = new Date();
    const dto = toAppDto(await this.apps.save(row));
    await this.events.raise('app.updated', accountId, { ...dto, changed: [changed], previousAttributes: {} });
    return dto;
  }

  /**
   * Deletes the app with everything hung on it, in one transaction: each module that holds its data
   * erases it (users are erased as by DELETE /v1/users/:id, one `user.deleted` each), then the row
   * goes and its deployments with it (their pages stop being served).
   */
  async delete(accountId: string, appId: string): Promise<void> {
    await this.db.run(async () => {
      if (!(await this.apps.findOwnedForUpdate(accountId, appId))) throw AppsError.notFound(appId);
      await this.erasure.run(accountId, appId);
      await this.apps.delete(accountId, appId);
      await this.events.raise('app.deleted', accountId, { appId });
    });
  }

  /** For a 404 on a path id: the app, if the account owns it. */
  async requireOwned(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwned(accountId, appId);
    if (!app) throw AppsError.notFound(appId);
    return app;
  }

  /**
   * For a body field `appId` (deploy, sign a user up): the caller's app, share-locked in the caller's
   * transaction so it is not deleted under the new row; a 400 naming the field otherwise.
   */
  async requireOwnedForBody(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwnedForShare(accountId, appId);
    if (!app) throw AppsError.notYours(appId);
    return app;
  }

  /** For a query filter `appId`: a 400 naming the field unless it is one of the caller's apps. */
  async requireOwnedForFilter(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwned(accountId, appId);
    if (!app) throw AppsError.notYours(appId);
    return app;
  }
}

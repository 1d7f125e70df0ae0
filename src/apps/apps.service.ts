import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/pagination.js';
import { EventBus } from '../events/event-bus.service.js';
import { App } from './app.entity.js';
import { AppsRepository } from './apps.repository.js';
import { AppDto, toAppDto } from './dto/app.dto.js';

export interface AppChanges {
  name?: string;
  description?: string | null;
}

@Injectable()
export class AppsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly apps: AppsRepository,
    private readonly events: EventBus,
  ) {}

  async create(accountId: string, input: { name: string; description?: string | null }): Promise<AppDto> {
    const app = await this.dataSource.transaction((m) =>
      this.apps.insert(m, { id: newId('app'), accountId, name: input.name, description: input.description ?? null }),
    );
    const dto = toAppDto(app);
    await this.events.publish('app.created', accountId, dto);
    return dto;
  }

  async list(accountId: string, page: PageRequest): Promise<Page<AppDto>> {
    return toPage(await this.apps.list(accountId, page), page, toAppDto);
  }

  async get(accountId: string, appId: string): Promise<AppDto> {
    return toAppDto(await this.requireOwned(accountId, appId));
  }

  async update(accountId: string, appId: string, changes: AppChanges): Promise<AppDto> {
    const fields = (['name', 'description'] as const).filter((f) => changes[f] !== undefined);
    if (fields.length === 0) throw new BadRequestException('Send at least one of name, description');
    const { app, previous } = await this.dataSource.transaction(async (m) => {
      const row = await this.apps.findOwnedForUpdate(m, accountId, appId);
      if (!row) throw appNotFound(appId);
      const before: AppChanges = {};
      for (const field of fields) {
        if (row[field] === changes[field]) continue;
        Object.assign(before, { [field]: row[field] });
        Object.assign(row, { [field]: changes[field] });
      }
      // Nothing differs: no write, no event.
      return { app: Object.keys(before).length > 0 ? await this.apps.save(m, row) : row, previous: before };
    });
    const dto = toAppDto(app);
    if (Object.keys(previous).length > 0) await this.events.publish('app.updated', accountId, { ...dto, previousAttributes: previous });
    return dto;
  }

  /** Deletes the app with its deployments (their pages stop being served) and its users. */
  async delete(accountId: string, appId: string): Promise<void> {
    const deleted = await this.dataSource.transaction((m) => this.apps.delete(m, accountId, appId));
    if (!deleted) throw appNotFound(appId);
    await this.events.publish('app.deleted', accountId, { appId });
  }

  /** For a 404 on a path id: the app, if the account owns it. */
  async requireOwned(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwned(accountId, appId);
    if (!app) throw appNotFound(appId);
    return app;
  }

  /**
   * For a body field `appId` (deploy, sign a user up): the caller's app, share-locked in the caller's
   * transaction so it is not deleted under the new row; a 400 naming the field otherwise.
   */
  async requireOwnedForBody(m: EntityManager, accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwnedForShare(m, accountId, appId);
    if (!app) throw appIdNotOwned(appId);
    return app;
  }

  /** For a query filter `appId`: a 400 naming the field unless it is one of the caller's apps. */
  async requireOwnedForFilter(accountId: string, appId: string): Promise<App> {
    const app = await this.apps.findOwned(accountId, appId);
    if (!app) throw appIdNotOwned(appId);
    return app;
  }
}

function appIdNotOwned(appId: string): BadRequestException {
  return new BadRequestException(`appId ${JSON.stringify(appId)} is not one of your apps`);
}

export function appNotFound(appId: string): NotFoundException {
  return new NotFoundException(`App ${appId} not found`);
}

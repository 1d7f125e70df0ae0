import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppsService } from '../apps/apps.service.js';
import { IdempotencyService } from '../common/idempotency/idempotency.service.js';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/pagination.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { EventBus } from '../events/event-bus.service.js';
import { UserDto } from './dto/user.dto.js';
import { AppUser } from './user.entity.js';
import { UsersRepository } from './users.repository.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly apps: AppsService,
    private readonly idempotency: IdempotencyService,
    private readonly events: EventBus,
  ) {}

  /** Signs a person up to an app. `email` arrives normalised (trimmed, lowercase). Emits `user.created`. */
  async create(accountId: string, input: { appId: string; email: string }): Promise<UserDto> {
    let user: AppUser;
    try {
      user = await this.dataSource.transaction(async (m) => {
        const app = await this.apps.requireOwnedForBody(m, accountId, input.appId);
        return this.users.insert(m, { id: newId('usr'), accountId, appId: app.id, email: input.email });
      });
    } catch (err) {
      // The message leaves the address out: error bodies end up in logs.
      if (isUniqueViolation(err)) throw new ConflictException(`email is already signed up to app ${input.appId}`);
      throw err;
    }
    const dto = toUserDto(user);
    await this.events.publish('user.created', accountId, { id: dto.id, email: dto.email, appId: dto.appId });
    return dto;
  }

  async list(accountId: string, appId: string | undefined, page: PageRequest): Promise<Page<UserDto>> {
    if (appId !== undefined) {
      // A filter naming someone else's (or no) app is a bad parameter, as in POST.
      appId = (await this.apps.requireOwnedForFilter(accountId, appId)).id;
    }
    return toPage(await this.users.list(accountId, appId, page), page, toUserDto);
  }

  async get(accountId: string, userId: string): Promise<UserDto> {
    const user = await this.users.findOwned(accountId, userId);
    if (!user) throw userNotFound(userId);
    return toUserDto(user);
  }

  /**
   * Erasure: deletes the row, and the stored idempotent response that held the e-mail, in one
   * transaction. Emits `user.deleted` (without the e-mail).
   */
  async delete(accountId: string, userId: string): Promise<void> {
    const deleted = await this.dataSource.transaction(async (m) => {
      const row = await this.users.delete(m, accountId, userId);
      if (row) await this.idempotency.forgetResponsesOf(m, accountId, row.id);
      return row;
    });
    if (!deleted) throw userNotFound(userId);
    await this.events.publish('user.deleted', accountId, { id: deleted.id, appId: deleted.appId });
  }
}

function userNotFound(userId: string): NotFoundException {
  return new NotFoundException(`User ${userId} not found`);
}

function toUserDto(user: AppUser): UserDto {
  return { id: user.id, appId: user.appId, email: user.email, createdAt: user.createdAt.toISOString() };
}

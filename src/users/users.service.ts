import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppErasure, AppErasureParticipant } from '../apps/app-erasure.js';
import { AppsError, AppsErrorCode } from '../apps/apps.errors.js';
import { AppsService } from '../apps/apps.service.js';
import { IdempotencyService } from '../common/idempotency/idempotency.service.js';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import type { SignupSource } from '../events/domain-events.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { EventLogService } from '../events/event-log.service.js';
import { UserDto } from './dto/user.dto.js';
import type { AppUser } from './user.entity.js';
import { UsersError } from './users.errors.js';
import { UsersRepository } from './users.repository.js';

export interface SignupOrigin {
  source: SignupSource;
  deploymentId?: string;
}

@Injectable()
export class UsersService implements AppErasureParticipant, OnModuleInit {
  constructor(
    private readonly db: Transactions,
    private readonly users: UsersRepository,
    private readonly apps: AppsService,
    private readonly idempotency: IdempotencyService,
    private readonly events: DomainEvents,
    private readonly eventLog: EventLogService,
    private readonly appErasure: AppErasure,
    private readonly audit: AuditLog,
  ) {}

  onModuleInit(): void {
    this.appErasure.register(this);
  }

  /**
   * Signs a person up to an app. `email` arrives normalised (trimmed, lowercase). Emits `user.created`
   * with where the sign-up came from: the API, or a deployment's landing page.
   */
  async create(accountId: string, input: { appId: string; email: string }, origin: SignupOrigin = { source: 'api' }): Promise<UserDto> {
    try {
      return await this.db.run(async () => {
        const app = await this.apps.requireOwnedForBody(accountId, input.appId);
        const dto = toUserDto(await this.users.insert({ id: newId('usr'), accountId, appId: app.id, email: input.email }));
        await this.events.raise('user.created', accountId, { id: dto.id, email: dto.email, appId: dto.appId, ...origin });
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw UsersError.emailTaken(input.appId);
      throw err;
    }
  }

  /**
   * Many sign-ups in the caller's transaction, set-wise (the sign-up form's batches): each (app,
   * e-mail) not signed up yet becomes a user and raises `user.created`, as `create` does; an address
   * already signed up, or an app that is gone or not the account's, is skipped. Answers the users
   * created, each with the index of its entry.
   */
  async createNew(signups: Array<{ accountId: string; appId: string; email: string; origin: SignupOrigin }>): Promise<Array<{ index: number; user: UserDto }>> {
    const owned = new Map<string, boolean>();
    for (const { accountId, appId } of signups) {
      const key = `${accountId} ${appId}`;
      if (!owned.has(key))
        owned.set(
          key,
          await this.apps.requireOwnedForBody(accountId, appId).then(
            () => true,
            (err: unknown) => notYours(err),
          ),
        );
    }
    const indexOf = new Map<string, number>();
    const rows = [];
    for (const [index, { accountId, appId, email }] of signups.entries()) {
      if (!owned.get(`${accountId} ${appId}`)) continue;
      const id = newId('usr');
      indexOf.set(id, index);
      rows.push({ id, accountId, appId, email });
    }
    const created = [];
    for (const user of await this.users.insertNew(rows)) {
      const dto = toUserDto(user);
      const index = indexOf.get(user.id)!;
      await this.events.raise('user.created', user.accountId, { id: dto.id, email: dto.email, appId: dto.appId, ...signups[index].origin });
      created.push({ index, user: dto });
    }
    return created;
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
    if (!user) throw UsersError.notFound(userId);
    return toUserDto(user);
  }

  /**
   * Erasure, in one transaction: the row, the stored idempotent response that held the e-mail, and
   * the e-mail in the event log go. Emits `user.deleted` (without the e-mail). `onlyApp`: a credential bound to
   * one app erases that app's users only (another's is not found).
   */
  async delete(accountId: string, actor: Actor, userId: string, onlyApp?: string): Promise<void> {
    await this.db.run(async () => {
      const row = await this.users.delete(accountId, userId, onlyApp);
      if (!row) throw UsersError.notFound(userId);
      await this.forget(accountId, row.appId, [row.id]);
      await this.audit.record(accountId, actor, 'user.erased', userId);
    });
  }

  /** The app is being deleted (in its transaction): its users are erased exactly as one by one. */
  async eraseApp(accountId: string, appId: string): Promise<void> {
    await this.forget(accountId, appId, await this.users.deleteAllOfApp(accountId, appId));
  }

  /** What erasing deleted users leaves to do: their e-mails elsewhere, and telling receivers. */
  private async forget(accountId: string, appId: string, userIds: string[]): Promise<void> {
    await this.idempotency.forgetResponsesOf(accountId, userIds);
    await this.eventLog.forgetUserEmails(accountId, userIds);
    for (const id of userIds) await this.events.raise('user.deleted', accountId, { id, appId });
  }
}

/** False for the error of an app that is gone or not the account's; any other error is rethrown. */
function notYours(err: unknown): false {
  if (err instanceof AppsError && err.reason === AppsErrorCode.NotYours) return false;
  throw err;
}

function toUserDto(user: AppUser): UserDto {
  return { id: user.id, appId: user.appId, email: user.email, createdAt: user.createdAt.toISOString() };
}

import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { EventDto, toEventDto } from './dto/event.dto.js';
import { EventLogRepository } from './event-log.repository.js';
import { EventsError } from './events.errors.js';

/** The event log keeps 30 days. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

/** The public event log (`/v1/events`): what happened in an account over the last 30 days. */
@Injectable()
export class EventLogService {
  constructor(private readonly log: EventLogRepository) {}

  async list(accountId: string, kind: string | undefined, page: PageRequest): Promise<Page<EventDto>> {
    return toPage(await this.log.list(accountId, kind, retentionStart(), page), page, toEventDto);
  }

  async get(accountId: string, id: string): Promise<EventDto> {
    const event = await this.log.find(accountId, id, retentionStart());
    if (!event) throw EventsError.notFound(id);
    return toEventDto(event);
  }

  /**
   * Logs an event that no listener handles (`webhook.test`: its one delivery is written by the
   * caller), in the caller's transaction, as dispatched. Returns its id.
   */
  async recordHandled(accountId: string, kind: string, data: Record<string, unknown>): Promise<string> {
    const at = new Date();
    const id = newId('evt');
    await this.log.insert({ id, accountId, kind, data, createdAt: at, dispatchedAt: at });
    return id;
  }

  /** Event id → the event as its webhooks carry it, for lists of deliveries. */
  async payloadsOf(eventIds: string[]): Promise<Map<string, EventDto>> {
    return new Map((await this.log.payloadsOf(eventIds)).map((e) => [e.id, toEventDto(e)]));
  }

  /** Erasure, in the caller's transaction: these people's e-mails leave the log (and the deliveries still to send). */
  forgetUserEmails(accountId: string, userIds: string[]): Promise<void> {
    return this.log.forgetUserEmails(accountId, userIds);
  }

  /** Deletes dispatched events past the retention period; returns how many. */
  purgeExpired(): Promise<number> {
    return this.log.purgeDispatchedBefore(retentionStart());
  }
}

function retentionStart(): Date {
  return new Date(Date.now() - EVENT_RETENTION_MS);
}

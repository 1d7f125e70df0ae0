import { Injectable, Logger } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { EventDto, toEventDto } from './dto/event.dto.js';
import { EventLogRepository } from './event-log.repository.js';
import { EventsError } from './events.errors.js';

/** The event log keeps 30 days. */
export const EVENT_RETENTION_MS = 30 * 24 * 3600 * 1000;

/**
 * The public event log (`/v1/events`): what happened in an account over the last 30 days. Older
 * events go hourly, in worker processes (a failed hour is made up by the next; reads already hide them).
 */
@Injectable()
export class EventLogService {
  private readonly logger = new Logger('EventLog');

  constructor(
    private readonly log: EventLogRepository,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'event-log-purge', schedule: { cron: '0 * * * *' }, runsOn: 'workers', run: () => this.purgeExpired() });
  }

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

  /** Deletes dispatched events past the retention period, with their deliveries and attempts; returns how many. */
  async purgeExpired(): Promise<number> {
    const purged = await this.log.purgeDispatchedBefore(retentionStart());
    if (purged > 0) this.logger.log(`Purged ${purged} event(s) older than 30 days`);
    return purged;
  }
}

function retentionStart(): Date {
  return new Date(Date.now() - EVENT_RETENTION_MS);
}

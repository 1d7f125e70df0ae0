import { Injectable, Logger } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import type { Actor } from '../common/request-context/actor.js';
import { AUDIT_ACTIONS, AuditAction } from './audit-actions.js';
import type { AuditEntry } from './audit-entry.entity.js';
import { AuditLogRepository, AuditFilter } from './audit-log.repository.js';
import { AuditEntryDto, toAuditEntryDto } from './dto/audit-entry.dto.js';

/** Entries are kept 400 days. */
export const AUDIT_RETENTION_MS = 400 * 86_400_000;

/**
 * The audit log: who did what in an account. Services record their actions with `record`, inside
 * the transaction of the change when there is one (the entry then commits with it or not at all).
 * Nothing edits or deletes an entry but the retention job: daily, in worker processes (a failed day
 * is made up by the next).
 */
@Injectable()
export class AuditLog {
  private readonly logger = new Logger('AuditLog');

  constructor(
    private readonly entries: AuditLogRepository,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'audit-log-purge', schedule: { cron: '17 3 * * *' }, runsOn: 'workers', run: () => this.purgeExpired() });
  }

  async record(accountId: string, actor: Actor, action: AuditAction, targetId: string): Promise<void> {
    const entry: AuditEntry = {
      id: newId('aud'),
      accountId,
      createdAt: new Date(),
      actorType: actor.type,
      actorId: actor.id.slice(0, 64),
      actorLabel: actor.label.slice(0, 320),
      action,
      targetType: AUDIT_ACTIONS[action],
      targetId: targetId.slice(0, 320),
      ip: actor.ip,
    };
    await this.entries.insert(entry);
  }

  async list(accountId: string, filter: AuditFilter, page: PageRequest): Promise<Page<AuditEntryDto>> {
    return toPage(await this.entries.list(accountId, filter, page), page, toAuditEntryDto);
  }

  /** Deletes what is past retention, a batch at a time; answers how many. */
  async purgeExpired(now = Date.now()): Promise<number> {
    const before = new Date(now - AUDIT_RETENTION_MS);
    let total = 0;
    let purged: number;
    do {
      purged = await this.entries.purgeBefore(before);
      total += purged;
    } while (purged > 0);
    if (total > 0) this.logger.log(`Purged ${total} audit entr${total === 1 ? 'y' : 'ies'} older than 400 days`);
    return total;
  }
}

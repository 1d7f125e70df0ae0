import { Injectable } from '@nestjs/common';
import type { PageRequest } from '../common/pagination/page.js';
import { applyKeyset } from '../database/keyset-pagination.js';
import { Transactions } from '../database/transactions.js';
import { AuditEntry } from './audit-entry.entity.js';

export interface AuditFilter {
  action?: string;
  actor?: string;
  from?: Date;
  to?: Date;
}

const INSERT = `INSERT INTO audit_log (id, account_id, created_at, actor_type, actor_id, actor_label, action, target_type, target_id, ip)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

/** The audit_log table: inserts and reads only (the table refuses the rest, see its migration), and the retention's delete. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly db: Transactions) {}

  /** In the running transaction the entry goes out with its next statement or its COMMIT: it commits with the action or not at all. */
  async insert(e: AuditEntry): Promise<void> {
    const values = [e.id, e.accountId, e.createdAt, e.actorType, e.actorId, e.actorLabel, e.action, e.targetType, e.targetId, e.ip];
    if (this.db.active) this.db.queueWrite(INSERT, values);
    else await this.db.query(INSERT, values);
  }

  list(accountId: string, filter: AuditFilter, page: PageRequest): Promise<AuditEntry[]> {
    const qb = this.db.manager.getRepository(AuditEntry).createQueryBuilder('a').where('a.accountId = :accountId', { accountId });
    if (filter.action) qb.andWhere('a.action = :action', { action: filter.action });
    if (filter.actor) qb.andWhere('a.actorId = :actor', { actor: filter.actor });
    if (filter.from) qb.andWhere('a.createdAt >= :from', { from: filter.from });
    if (filter.to) qb.andWhere('a.createdAt < :to', { to: filter.to });
    return applyKeyset(qb, 'a', page).getMany();
  }

  /** Deletes the entries older than `before` (the trigger allows nothing younger than 400 days); answers how many. */
  async purgeBefore(before: Date): Promise<number> {
    const rows = await this.db.query<{ n: string }>(
      `WITH gone AS (DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE created_at < $1 LIMIT 10000) RETURNING 1) SELECT count(*) AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  }
}

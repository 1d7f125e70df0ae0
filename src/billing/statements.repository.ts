import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { Statement } from './statement.js';

interface StatementRow {
  id: string;
  account_id: string;
  period_start: string;
  period_end: string;
  plan_id: string;
  plan_name: string;
  lines: Statement['lines'];
  total_cents: string;
  currency: string;
}

/** Closed monthly statements: one per account and period (the unique key that makes closing safe to repeat). */
@Injectable()
export class StatementsRepository {
  constructor(private readonly db: Transactions) {}

  /**
   * Stores a closed statement unless the account's period is closed already; true if this call closed it.
   * ON CONFLICT without a target: two workers closing the same period insert the same id (it is derived
   * from the account and period), and a conflict on the primary key must be "already closed" too, not an
   * error (a target names one unique index; a concurrent insert can hit the other one first).
   */
  async insertOnce(statement: Statement, accountId: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO statements (id, account_id, period_start, period_end, plan_id, plan_name, lines, total_cents, currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING id`,
      [
        statement.id,
        accountId,
        statement.period.start,
        statement.period.end,
        statement.plan.id,
        statement.plan.name,
        JSON.stringify(statement.lines),
        statement.totalCents,
        statement.currency,
      ],
    );
    return rows.length > 0;
  }

  async isClosed(accountId: string, periodStart: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM statements WHERE account_id = $1 AND period_start = $2`, [accountId, periodStart]);
    return rows.length > 0;
  }

  /** Closed statements, newest first, before `beforeStart` if given; `limit` rows. */
  async list(accountId: string, limit: number, beforeStart?: string): Promise<Statement[]> {
    const rows = await this.db.query<StatementRow>(
      `SELECT id, account_id, to_char(period_start, 'YYYY-MM-DD') AS period_start, to_char(period_end, 'YYYY-MM-DD') AS period_end,
              plan_id, plan_name, lines, total_cents, currency
         FROM statements WHERE account_id = $1 ${beforeStart ? 'AND period_start < $3' : ''}
        ORDER BY period_start DESC LIMIT $2`,
      beforeStart ? [accountId, limit, beforeStart] : [accountId, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      period: { start: r.period_start, end: r.period_end },
      plan: { id: r.plan_id, name: r.plan_name },
      lines: r.lines,
      totalCents: Number(r.total_cents),
      currency: r.currency as Statement['currency'],
      status: 'closed',
    }));
  }
}

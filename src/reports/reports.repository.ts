import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import type { ReportKind, ReportPeriod } from './report-periods.js';

/** A report due: a member's switched-on report of an app, with what the mail needs to find them. */
export interface DueReport {
  subscriptionId: string;
  memberId: string;
  accountId: string;
  email: string;
  appId: string;
}

/** How long a claim holds a report for the worker that took it: past it, another worker may take it (the first died). */
export const CLAIM_LEASE_SECONDS = 600;
/** Claims of one report at most: a report that failed this often is given up (the SMTP server refuses it). */
export const MAX_ATTEMPTS = 5;

/** The tables of e-mail reports: the members' switches and one row per report sent (or being sent). */
@Injectable()
export class ReportsRepository {
  constructor(private readonly db: Transactions) {}

  /** The member's e-mail address, if `memberId` is a member of the account (not a service account, not removed). */
  async memberEmail(accountId: string, memberId: string): Promise<string | null> {
    const [row] = await this.db.query<{ email: string }>(`SELECT email FROM members WHERE id = $1 AND account_id = $2`, [memberId, accountId]);
    return row?.email ?? null;
  }

  async kindsOn(memberId: string, appId: string): Promise<ReportKind[]> {
    const rows = await this.db.query<{ kind: ReportKind }>(`SELECT kind FROM analytics_report_subscriptions WHERE member_id = $1 AND app_id = $2`, [
      memberId,
      appId,
    ]);
    return rows.map((r) => r.kind);
  }

  async switchOn(id: string, memberId: string, appId: string, kind: ReportKind): Promise<void> {
    await this.db.query(`INSERT INTO analytics_report_subscriptions (id, member_id, app_id, kind) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
      id,
      memberId,
      appId,
      kind,
    ]);
  }

  async switchOff(memberId: string, appId: string, kind: ReportKind): Promise<void> {
    await this.db.query(`DELETE FROM analytics_report_subscriptions WHERE member_id = $1 AND app_id = $2 AND kind = $3`, [memberId, appId, kind]);
  }

  /** Turns off the switch with this id; true if it was on (an unsubscribe link works once). */
  async unsubscribe(subscriptionId: string): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM analytics_report_subscriptions WHERE id = $1 RETURNING id`, [subscriptionId]);
    return rows.length > 0;
  }

  async subscription(id: string): Promise<{ kind: ReportKind; appName: string } | null> {
    const [row] = await this.db.query<{ kind: ReportKind; app_name: string }>(
      `SELECT s.kind, a.name AS app_name FROM analytics_report_subscriptions s JOIN apps a ON a.id = s.app_id WHERE s.id = $1`,
      [id],
    );
    return row ? { kind: row.kind, appName: row.app_name } : null;
  }

  /**
   * A page (after subscription id `after`) of the period's reports not sent yet: switches turned on before
   * the period ended, of members still in the account that owns the app.
   */
  async due(period: ReportPeriod, end: Date, after: string, limit: number): Promise<DueReport[]> {
    const rows = await this.db.query<{ id: string; member_id: string; account_id: string; email: string; app_id: string }>(
      `SELECT s.id, s.member_id, m.account_id, m.email, s.app_id
         FROM analytics_report_subscriptions s
         JOIN members m ON m.id = s.member_id
         JOIN apps a ON a.id = s.app_id AND a.account_id = m.account_id
        WHERE s.kind = $1 AND s.created_at < $2 AND s.id > $3
          AND NOT EXISTS (SELECT 1 FROM analytics_report_sends r
                           WHERE r.member_id = s.member_id AND r.app_id = s.app_id AND r.kind = s.kind AND r.period_start = $4 AND r.status = 'sent')
        ORDER BY s.id LIMIT $5`,
      [period.kind, end, after, period.from, limit],
    );
    return rows.map((r) => ({ subscriptionId: r.id, memberId: r.member_id, accountId: r.account_id, email: r.email, appId: r.app_id }));
  }

  /**
   * Claims the report of this member, app and period for the caller, in one statement: a new row, or a
   * claim whose lease ran out (its worker died before marking it) with attempts left. False when it was
   * sent, or another worker holds it now.
   */
  async claim(report: DueReport, period: ReportPeriod): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO analytics_report_sends (member_id, app_id, kind, period_start, lease_until)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))
       ON CONFLICT (member_id, app_id, kind, period_start) DO UPDATE
          SET lease_until = EXCLUDED.lease_until, attempts = analytics_report_sends.attempts + 1
        WHERE analytics_report_sends.status = 'claimed' AND analytics_report_sends.lease_until < now() AND analytics_report_sends.attempts < $6
       RETURNING attempts`,
      [report.memberId, report.appId, period.kind, period.from, CLAIM_LEASE_SECONDS, MAX_ATTEMPTS],
    );
    return rows.length > 0;
  }

  async markSent(report: DueReport, period: ReportPeriod): Promise<void> {
    await this.db.query(
      `UPDATE analytics_report_sends SET status = 'sent', sent_at = now() WHERE member_id = $1 AND app_id = $2 AND kind = $3 AND period_start = $4`,
      [report.memberId, report.appId, period.kind, period.from],
    );
  }

  /** Lets the next run try again at once (the SMTP server failed): the lease ends now. */
  async release(report: DueReport, period: ReportPeriod): Promise<void> {
    await this.db.query(
      `UPDATE analytics_report_sends SET lease_until = now() - interval '1 second'
        WHERE member_id = $1 AND app_id = $2 AND kind = $3 AND period_start = $4 AND status = 'claimed'`,
      [report.memberId, report.appId, period.kind, period.from],
    );
  }
}

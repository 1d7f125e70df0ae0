import { Injectable, Logger } from '@nestjs/common';
import { AnalyticsStatsService } from '../analytics/analytics-stats.service.js';
import { AppsService } from '../apps/apps.service.js';
import { newId } from '../common/ids.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import type { Principal } from '../common/request-context/principal.js';
import { AppConfig } from '../config/app-config.js';
import { Mailer } from '../mail/mailer.js';
import { Figure, Ranked, ReportContent, reportMail } from './report-mail.js';
import { lastCompletePeriod, periodEnd, previousPeriod, REPORT_KINDS, ReportKind, ReportPeriod } from './report-periods.js';
import { ReportsError } from './reports.errors.js';
import { DueReport, ReportsRepository } from './reports.repository.js';
import { UnsubscribeTokens } from './unsubscribe-tokens.js';

export type ReportSwitches = Record<ReportKind, boolean>;

/** What one run did: reports sent, failed (the SMTP server refused or was down: tried again next run), and skipped (another worker holds them). */
export interface SendOutcome {
  sent: number;
  failed: number;
  skipped: number;
}

/** Reports read per page of due ones. */
const PAGE = 100;
/** Rows of each top list. */
const TOP = 5;

/**
 * E-mail reports: each member switches an app's weekly and monthly reports on or off; a worker job
 * (`analytics-reports`, daily at 06:00 UTC) sends each switched-on report of the last complete period
 * once — the week on Mondays, the month on the 1st, or on a later day if those runs were missed. Once per
 * member, app and period across workers and restarts: a row claimed before the send (with a lease) and
 * marked after it; a worker that dies between the two leaves a claim another run takes once its lease
 * has run out (at least once to the SMTP server: see docs/decisions/2026-11-29-report-once-per-period.md).
 */
@Injectable()
export class ReportsService {
  private readonly logger = new Logger('Reports');

  constructor(
    private readonly reports: ReportsRepository,
    private readonly stats: AnalyticsStatsService,
    private readonly apps: AppsService,
    private readonly mailer: Mailer,
    private readonly tokens: UnsubscribeTokens,
    private readonly config: AppConfig,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'analytics-reports', schedule: { cron: '0 6 * * *' }, runsOn: 'workers', run: ({ signal }) => this.sendDue(new Date(), signal) });
  }

  async switches(principal: Principal, appId: string): Promise<ReportSwitches> {
    const memberId = await this.requireMember(principal, appId);
    const on = await this.reports.kindsOn(memberId, appId);
    return { weekly: on.includes('weekly'), monthly: on.includes('monthly') };
  }

  /** Turns the member's reports of the app on or off (a kind not given stays as it is); answers them all. */
  async setSwitches(principal: Principal, appId: string, changes: Partial<ReportSwitches>): Promise<ReportSwitches> {
    const memberId = await this.requireMember(principal, appId);
    for (const kind of REPORT_KINDS) {
      if (changes[kind] === true) await this.reports.switchOn(newId('rsub'), memberId, appId, kind);
      else if (changes[kind] === false) await this.reports.switchOff(memberId, appId, kind);
    }
    return this.switches(principal, appId);
  }

  /** Sends every report due now, of both kinds; the job's run and the operator's trigger. */
  async sendDue(now = new Date(), signal?: AbortSignal): Promise<SendOutcome> {
    const outcome: SendOutcome = { sent: 0, failed: 0, skipped: 0 };
    // Without SMTP_URL nothing is claimed: the reports go once it is set.
    if (!this.mailer.configured) return outcome;
    for (const kind of REPORT_KINDS) {
      const period = lastCompletePeriod(kind, now);
      for (let after = ''; !signal?.aborted;) {
        const due = await this.reports.due(period, periodEnd(period), after, PAGE);
        if (due.length === 0) break;
        for (const report of due) {
          if (signal?.aborted) break;
          outcome[await this.sendOne(report, period)]++;
        }
        after = due[due.length - 1].subscriptionId;
      }
    }
    if (outcome.sent + outcome.failed > 0)
      this.logger.log(`Reports: ${outcome.sent} sent, ${outcome.failed} failed, ${outcome.skipped} held by another worker`);
    return outcome;
  }

  /** What a token's unsubscribe page says: the report it turns off, or null (a forged token, or the report is off already). */
  async unsubscribeTarget(token: string): Promise<{ kind: ReportKind; appName: string } | null> {
    const id = this.tokens.read(token);
    return id ? this.reports.subscription(id) : null;
  }

  /** Turns off the report the token names; true if it was on. */
  async unsubscribe(token: string): Promise<boolean> {
    const id = this.tokens.read(token);
    return id !== null && this.reports.unsubscribe(id);
  }

  private async sendOne(report: DueReport, period: ReportPeriod): Promise<keyof SendOutcome> {
    if (!(await this.reports.claim(report, period))) return 'skipped';
    let mailed;
    try {
      mailed = await this.mailer.send(reportMail(report.email, await this.content(report, period)));
    } catch (err) {
      this.logger.error({ err }, `Report ${period.kind} ${period.from} of app ${report.appId} not built`);
      mailed = { sent: false };
    }
    if (!mailed.sent) {
      await this.reports.release(report, period);
      return 'failed';
    }
    await this.reports.markSent(report, period);
    return 'sent';
  }

  /** The report's figures, read through the stats API's own service (so they are the API's figures for the same range). */
  private async content(report: DueReport, period: ReportPeriod): Promise<ReportContent> {
    const app = await this.apps.requireOwned(report.accountId, report.appId);
    const range = (p: ReportPeriod) => ({ period: 'custom', from: p.from, to: p.to });
    const metrics = 'visitors,pageviews,signups,conversionRate';
    const read = async (p: ReportPeriod) => (await this.stats.aggregate(report.accountId, report.appId, { ...range(p), metrics })).results;
    const now = await read(period);
    const before = await read(previousPeriod(period));
    const figure = (label: string, key: string, unit?: '%'): Figure => ({ label, value: now[key].value, previous: before[key].value, unit });
    const top = async (property: 'page' | 'source' | 'goal'): Promise<Ranked[]> =>
      (await this.stats.breakdown(report.accountId, report.appId, { ...range(period), property, limit: TOP })).data.map((row) => ({
        name: String(row[property]),
        visitors: Number(row.visitors),
      }));
    const base = this.config.publicUrl;
    return {
      appName: app.name,
      period,
      figures: [
        figure('Visitors', 'visitors'),
        figure('Pageviews', 'pageviews'),
        figure('Sign-ups', 'signups'),
        figure('Conversion rate', 'conversionRate', '%'),
      ],
      pages: await top('page'),
      sources: await top('source'),
      goals: await top('goal'),
      dashboardUrl: `${base}/portal/apps/${encodeURIComponent(report.appId)}/analytics`,
      unsubscribeUrl: `${base}/reports/unsubscribe/${this.tokens.issue(report.subscriptionId)}`,
    };
  }

  /** The member the caller acts for (a person in the account; a service account or the operator's key has none), once the app is theirs. */
  private async requireMember(principal: Principal, appId: string): Promise<string> {
    await this.apps.requireOwned(principal.accountId, appId);
    const memberId = principal.member?.id;
    if (!memberId || principal.member?.role === null || !(await this.reports.memberEmail(principal.accountId, memberId))) throw ReportsError.memberRequired();
    return memberId;
  }
}

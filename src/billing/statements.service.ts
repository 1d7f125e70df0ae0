import { Injectable, Logger } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { Page } from '../common/pagination/page.js';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { Transactions } from '../database/transactions.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { AccountPlans } from './account-plans.js';
import { AppConfig } from '../config/app-config.js';
import { periodOf } from './plans.js';
import { buildStatement, Statement } from './statement.js';
import { StatementsRepository } from './statements.repository.js';
import { UsageRepository } from './usage.repository.js';

const ACCOUNTS_PER_PAGE = 500;

/**
 * Monthly statements. The current month's is computed when asked (`open`); on the first of the next
 * month a job closes it: stores it once per account and period (a unique key — the job may run on
 * every worker, and again, without closing anything twice) and raises `billing.statement.closed`
 * in the same transaction.
 */
@Injectable()
export class StatementsService {
  private readonly logger = new Logger('Billing');

  constructor(
    private readonly db: Transactions,
    private readonly statements: StatementsRepository,
    private readonly usage: UsageRepository,
    private readonly plans: AccountPlans,
    private readonly accounts: AccountsService,
    private readonly events: DomainEvents,
    private readonly config: AppConfig,
    jobs: PeriodicJobs,
  ) {
    jobs.add({ name: 'billing-statements', schedule: { cron: '15 0 * * *' }, runsOn: 'workers', run: () => this.closeDue() });
  }

  /** The account's statements, newest first: this month's while it is open (computed now), then the closed ones. Cursor: the last period's start. */
  async list(accountId: string, limit: number, cursor?: string): Promise<Page<Statement>> {
    if (cursor !== undefined && !/^\d{4}-\d{2}-01$/.test(cursor)) throw RequestError.invalidCursor();
    const current = periodOf(new Date());
    const items: Statement[] = !cursor && !(await this.statements.isClosed(accountId, current.start)) ? [await this.open(accountId)] : [];
    items.push(...(await this.statements.list(accountId, limit + 1, cursor)));
    const page = items.slice(0, limit);
    return { data: page, nextCursor: items.length > limit ? page[page.length - 1].period.start : null };
  }

  async open(accountId: string, at = new Date()): Promise<Statement> {
    const period = periodOf(at);
    return buildStatement(
      accountId,
      period,
      await this.plans.of(accountId),
      await this.usage.totals(accountId, period.start, period.end),
      'open',
      this.config.FUNCTIONS_MEMORY_MB,
    );
  }

  /** Closes last month's statements not closed yet: the job `billing-statements` runs it at 00:15 UTC daily in worker processes (the 1st, or a later day if that run was missed). */
  async closeDue(now = new Date()): Promise<number> {
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    return this.closePeriod(periodOf(lastMonth));
  }

  /** Closes the period for every account that existed in it; answers how many this call closed. */
  async closePeriod(period: { start: string; end: string }): Promise<number> {
    let closed = 0;
    for (let after = ''; ;) {
      const ids = await this.accounts.idsAfter(after, ACCOUNTS_PER_PAGE, period.end);
      if (ids.length === 0) break;
      for (const accountId of ids) if (await this.closeOne(accountId, period)) closed++;
      after = ids[ids.length - 1];
    }
    if (closed > 0) this.logger.log(`Closed ${closed} statement(s) of ${period.start}`);
    return closed;
  }

  private closeOne(accountId: string, period: { start: string; end: string }): Promise<boolean> {
    return this.db.run(async () => {
      if (await this.statements.isClosed(accountId, period.start)) return false;
      const usage = await this.usage.totals(accountId, period.start, period.end);
      const statement = buildStatement(accountId, period, await this.plans.of(accountId), usage, 'closed', this.config.FUNCTIONS_MEMORY_MB);
      if (!(await this.statements.insertOnce(statement, accountId))) return false;
      await this.events.raise('billing.statement.closed', accountId, { statementId: statement.id, period, totalCents: statement.totalCents });
      return true;
    });
  }
}

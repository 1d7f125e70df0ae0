import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { Injectable } from '@nestjs/common';
import { AccountsService } from '../accounts/accounts.service.js';
import { AppConfig } from '../config/app-config.js';
import { Transactions } from '../database/transactions.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { AccountPlans } from './account-plans.js';
import { Meter, METERS, periodOf } from './plans.js';
import { StorageMeter } from './storage-meter.js';
import { UsageRepository } from './usage.repository.js';

export interface MeterUsage {
  meter: string;
  used: number;
  included: number | null;
  percent: number | null;
  hard: boolean;
  /** `functions.duration_ms` only: each function instance's memory limit (MiB), beside the wall time. */
  memoryMb?: number;
}

export interface BillingSummary {
  plan: { id: string; name: string };
  period: { start: string; end: string };
  usage: MeterUsage[];
}

/** What an account is on and has used this month; plan changes (admin). */
@Injectable()
export class BillingService {
  constructor(
    private readonly db: Transactions,
    private readonly plans: AccountPlans,
    private readonly usage: UsageRepository,
    private readonly accounts: AccountsService,
    private readonly events: DomainEvents,
    private readonly audit: AuditLog,
    private readonly storage: StorageMeter,
    private readonly config: AppConfig,
  ) {}

  async summary(accountId: string, at = new Date()): Promise<BillingSummary> {
    const plan = await this.plans.of(accountId);
    const period = periodOf(at);
    const [totals, stored] = await Promise.all([this.usage.totals(accountId, period.start, period.end), this.storage.level(accountId)]);
    // Counters: the month's sum; the one gauge, storage.bytes: what the account keeps now (its quota's measure).
    totals.set('storage.bytes', stored);
    return {
      plan: { id: plan.id, name: plan.name },
      period,
      usage: METERS.map((meter) => {
        const quota = plan.meters[meter];
        const used = totals.get(meter) ?? 0;
        const included = quota?.included ?? null;
        const usage: MeterUsage = {
          meter,
          used,
          included,
          percent: included === null ? null : included === 0 ? 100 : Math.round((used / included) * 1000) / 10,
          hard: quota?.hard ?? false,
        };
        if (meter === 'functions.duration_ms') usage.memoryMb = this.config.FUNCTIONS_MEMORY_MB;
        return usage;
      }),
    };
  }

  /** One meter's usage per UTC day over [from, to] (for charts). */
  daily(accountId: string, meter: Meter, from: string, to: string): Promise<Map<string, number>> {
    return this.usage.daily(accountId, meter, from, to);
  }

  /** The account's details for operators: who, which plan, this month's usage. */
  async account(accountId: string): Promise<{ accountId: string; email: string; createdAt: string } & BillingSummary> {
    const account = await this.accounts.get(accountId);
    return { accountId: account.id, email: account.email, createdAt: account.createdAt.toISOString(), ...(await this.summary(accountId)) };
  }

  /** Moves the account to another plan: its rate limits and quotas change at once. Emits `billing.plan.changed` (not for the same plan). */
  async changePlan(accountId: string, actor: Actor, planId: string): Promise<void> {
    await this.db.run(async () => {
      const from = await this.plans.change(accountId, planId);
      if (from === planId) return;
      await this.events.raise('billing.plan.changed', accountId, { from, to: planId });
      await this.audit.record(accountId, actor, 'plan.changed', accountId);
    });
    this.plans.forget(accountId);
  }
}

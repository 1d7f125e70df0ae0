import { Injectable } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { Transactions } from '../database/transactions.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { AccountPlans } from './account-plans.js';
import { BillingError } from './billing.errors.js';
import { isGauge, Meter, periodOf } from './plans.js';
import { UsageRepository } from './usage.repository.js';

/** Percentages of an included amount that are announced (`billing.usage.threshold_reached`), once each per period. */
export const THRESHOLDS = [80, 100] as const;

/**
 * The one way usage is recorded and quotas are checked. `record` runs in the caller's transaction
 * (the deploy's, the AI usage row's, the analytics batch's, the delivery attempt's), so a thing and
 * its usage commit or roll back together; the ledger's unique (meter, thing id) makes recording
 * twice record once. `assertRoom` is called before the work (in its transaction), `reserve` before
 * work that runs outside one: a hard quota without room answers 402 and nothing is done.
 */
@Injectable()
export class Meters {
  constructor(
    private readonly db: Transactions,
    private readonly usage: UsageRepository,
    private readonly plans: AccountPlans,
    private readonly events: DomainEvents,
  ) {}

  /** `subjectId`: whose own limits the thing counts against too (an API key's AI budget), if anyone's. */
  async record(accountId: string, meter: Meter, quantity: number, sourceId: string, at = new Date(), subjectId: string | null = null): Promise<void> {
    await this.recordMany([{ accountId, meter, quantity, sourceId, at, subjectId }]);
  }

  /** `record` for several things at once (a batch of delivery attempts): one write, then each touched meter's thresholds. */
  async recordMany(
    things: Array<{ accountId: string; meter: Meter; quantity: number; sourceId: string; at?: Date; subjectId?: string | null }>,
  ): Promise<void> {
    const records = things
      .filter((t) => t.quantity > 0)
      .map((t) => ({
        accountId: t.accountId,
        meter: t.meter,
        quantity: t.quantity,
        sourceId: t.sourceId,
        day: (t.at ?? new Date()).toISOString().slice(0, 10),
        subjectId: t.subjectId ?? null,
      }));
    if (records.length === 0) return;
    const latest = new Date(Math.max(...things.map((t) => (t.at ?? new Date()).getTime())));
    await this.db.run(async () => {
      if (!(await this.anyThresholds(records))) {
        // Nothing to announce, so nothing waits for the rows: they go out with the transaction's COMMIT.
        this.usage.queueManyOnce(records);
        return;
      }
      const recorded = await this.usage.insertManyOnce(records);
      // Each meter that grew, once, in the period of its latest thing.
      const touched = new Map<string, { accountId: string; meter: Meter; at: Date }>();
      for (const r of recorded) touched.set(`${r.accountId} ${r.meter}`, { accountId: r.accountId, meter: r.meter, at: latest });
      for (const { accountId, meter, at } of touched.values()) await this.announceThresholds(accountId, meter, at);
    });
  }

  /** Whether any of these meters has an included amount on its account's plan (so thresholds to announce). */
  private async anyThresholds(records: Array<{ accountId: string; meter: Meter }>): Promise<boolean> {
    for (const { accountId, meter } of records) if ((await this.includedOf(accountId, meter)) !== null) return true;
    return false;
  }

  /** The amount of `meter` the account's plan includes, or null when it includes none (no thresholds to announce). */
  private async includedOf(accountId: string, meter: Meter): Promise<number | null> {
    return (await this.plans.of(accountId)).meters[meter]?.included ?? null;
  }

  /** `billing.usage.threshold_reached` for each threshold of the meter's included amount now reached, once per period. */
  private async announceThresholds(accountId: string, meter: Meter, at: Date): Promise<void> {
    const included = await this.includedOf(accountId, meter);
    if (included === null) return;
    const period = periodOf(at);
    // A gauge's use is its level (the day's sample), not the period's sum.
    const day = at.toISOString().slice(0, 10);
    const used = isGauge(meter)
      ? ((await this.usage.daily(accountId, meter, day, day)).get(day) ?? 0)
      : await this.usage.total(accountId, meter, period.start, period.end);
    for (const threshold of THRESHOLDS) {
      if (used * 100 < included * threshold) continue;
      if (await this.usage.markThreshold(accountId, meter, threshold, period.start)) {
        await this.events.raise('billing.usage.threshold_reached', accountId, {
          meter,
          threshold,
          used,
          included,
          periodStart: period.start,
        });
      }
    }
  }

  /**
   * Before metered work, in its transaction: 402 when the plan's hard quota of `meter` has no room
   * for `quantity` more (recorded usage and live reservations counted). Locks the account's meter
   * until the transaction ends, so two requests cannot both take the last unit: the work records
   * its usage in the same transaction (a deploy).
   */
  async assertRoom(accountId: string, meter: Meter, quantity = 1, at = new Date()): Promise<void> {
    const quota = (await this.plans.of(accountId)).meters[meter];
    if (!quota?.hard || quota.included === null) return;
    const period = periodOf(at);
    await this.usage.lockMeter(accountId, meter);
    const committed = await this.usage.committed(accountId, meter, period.start, period.end);
    if (committed + quantity > quota.included) throw BillingError.quotaExceeded(meter, quota.included, period.end, committed, quantity);
  }

  /**
   * For metered work that runs outside a transaction (a generation, seconds long): holds `quantity`
   * — the most it may use — against the plan's hard quota before it starts, or answers 402; and,
   * with `subject`, against that subject's own limits per day and month (an API key's AI budget),
   * or throws SubjectLimitReached. The checks and the hold are one transaction under the meter's
   * lock (on PostgreSQL, across every instance), and the hold counts in every later check until the
   * work settles (`release`, in the transaction that records what it used) or, if its process dies
   * first, until `ttlMs` have passed. Null when there is nothing to hold against: no hard quota on
   * the account's plan and no subject limit.
   */
  async reserve(
    accountId: string,
    meter: Meter,
    quantity: number,
    ttlMs: number,
    options: { at?: Date; subject?: SubjectLimits } = {},
  ): Promise<QuotaReservation | null> {
    const at = options.at ?? new Date();
    const quota = (await this.plans.of(accountId)).meters[meter];
    const hard = quota?.hard === true && quota.included !== null;
    const subject = options.subject && (options.subject.perDay !== null || options.subject.perMonth !== null) ? options.subject : undefined;
    if (!hard && !subject) return null;
    const id = newId('rsv');
    await this.db.run(async () => {
      if (hard) await this.assertRoom(accountId, meter, quantity, at);
      else await this.usage.lockMeter(accountId, meter);
      // A subject belongs to the account: the account's meter lock serialises its holds too.
      if (subject) await this.assertSubjectRoom(subject, meter, quantity, at);
      await this.usage.deleteExpiredReservations(accountId, meter);
      await this.usage.insertReservation(id, accountId, meter, quantity, ttlMs, subject?.id ?? null);
    });
    return { id, accountId, meter, quantity };
  }

  /** Under the meter's lock: SubjectLimitReached unless the subject's usage and holds of each period leave room for `quantity`. */
  private async assertSubjectRoom(subject: SubjectLimits, meter: Meter, quantity: number, at: Date): Promise<void> {
    const dayStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
    const monthStart = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
    const committed = await this.usage.subjectCommitted(subject.id, meter, dayStart, monthStart);
    const periods = [
      { period: 'day' as const, limit: subject.perDay, used: committed.usedToday, resetsAt: new Date(dayStart.getTime() + 86_400_000) },
      {
        period: 'month' as const,
        limit: subject.perMonth,
        used: committed.usedThisMonth,
        resetsAt: new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1)),
      },
    ];
    // The month's refusal first when both refuse: it lasts longer.
    for (const p of periods.reverse()) {
      if (p.limit !== null && p.used + committed.held + quantity > p.limit) {
        throw new SubjectLimitReached(subject.id, p.period, p.limit, p.used, committed.held, quantity, p.resetsAt);
      }
    }
  }

  /** Gives a reservation's quota back; in the caller's transaction (the one recording the usage it covered), if any. */
  async release(reservation: QuotaReservation | null): Promise<void> {
    if (reservation) await this.usage.deleteReservation(reservation.id);
  }
}

/** A subject's own limits on a meter (an API key's or a service account's AI budget); null: none for that period. */
export interface SubjectLimits {
  id: string;
  perDay: number | null;
  perMonth: number | null;
}

/** A hold refused by a subject's limit (`Meters.reserve`): the caller says so in its own words (the AI budget's 429). */
export class SubjectLimitReached extends Error {
  constructor(
    readonly subjectId: string,
    readonly period: 'day' | 'month',
    readonly limit: number,
    /** Recorded in the period. */
    readonly used: number,
    /** Held by work in flight. */
    readonly held: number,
    readonly wanted: number,
    /** When the period ends (UTC). */
    readonly resetsAt: Date,
  ) {
    super(`${subjectId}: ${period} limit of ${limit} reached`);
  }

  /** Room would be left once the work in flight settles (holds are upper bounds): worth a retry soon. */
  get blockedByHolds(): boolean {
    return this.used + this.wanted <= this.limit;
  }
}

/** Quota held by work in flight (see `Meters.reserve`). */
export interface QuotaReservation {
  id: string;
  accountId: string;
  meter: Meter;
  quantity: number;
}

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

  async record(accountId: string, meter: Meter, quantity: number, sourceId: string, at = new Date()): Promise<void> {
    await this.recordMany([{ accountId, meter, quantity, sourceId, at }]);
  }

  /** `record` for several things at once (a batch of delivery attempts): one write, then each touched meter's thresholds. */
  async recordMany(things: Array<{ accountId: string; meter: Meter; quantity: number; sourceId: string; at?: Date }>): Promise<void> {
    const records = things
      .filter((t) => t.quantity > 0)
      .map((t) => ({
        accountId: t.accountId,
        meter: t.meter,
        quantity: t.quantity,
        sourceId: t.sourceId,
        day: (t.at ?? new Date()).toISOString().slice(0, 10),
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
   * — the most it may use — against the plan's hard quota before it starts, or answers 402. The
   * check and the hold are one transaction under the meter's lock (on PostgreSQL, across every
   * instance), and the hold counts in every later check until the work settles (`release`, in the
   * transaction that records what it used) or, if its process dies first, until `ttlMs` have passed.
   * Null when the meter has no hard quota on the account's plan: nothing to hold.
   */
  async reserve(accountId: string, meter: Meter, quantity: number, ttlMs: number, at = new Date()): Promise<QuotaReservation | null> {
    const quota = (await this.plans.of(accountId)).meters[meter];
    if (!quota?.hard || quota.included === null) return null;
    const id = newId('rsv');
    await this.db.run(async () => {
      await this.assertRoom(accountId, meter, quantity, at);
      await this.usage.deleteExpiredReservations(accountId, meter);
      await this.usage.insertReservation(id, accountId, meter, quantity, ttlMs);
    });
    return { id, accountId, meter, quantity };
  }

  /** Gives a reservation's quota back; in the caller's transaction (the one recording the usage it covered), if any. */
  async release(reservation: QuotaReservation | null): Promise<void> {
    if (reservation) await this.usage.deleteReservation(reservation.id);
  }
}

/** Quota held by work in flight (see `Meters.reserve`). */
export interface QuotaReservation {
  id: string;
  accountId: string;
  meter: Meter;
  quantity: number;
}

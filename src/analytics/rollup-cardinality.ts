import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import { AnalyticsEventsRepository, RollupValue } from './analytics-events.repository.js';

/** Distinct values each breakdown property keeps per app and day; the rest count under OTHER. */
export const MAX_VALUES_PER_DAY = 1000;
/** The rollup value the values past MAX_VALUES_PER_DAY count under. */
export const OTHER = '(other)';
/** Values this process remembers to have a row (about 100 bytes each); beyond, the least recently used days of apps are forgotten. */
const MAX_REMEMBERED = 200_000;

/** Answers the value a rollup row is written under: the value itself, or OTHER. */
export type Fold = (appId: string, day: string, dimension: string, value: string) => string;

const keyOf = (appId: string, day: string, dimension: string) => `${appId}\u0000${day}\u0000${dimension}`;

/**
 * Bounded cardinality of the rollups: per app, day and breakdown property, the first
 * MAX_VALUES_PER_DAY distinct values get their own row and any further one counts under `(other)`,
 * so a flood of unique paths (or sources, campaigns…) adds one row, not one per value. The totals
 * (dimension '') are never folded. A value keeps its row all day once it has one, and one folded
 * stays folded (the property is full for the rest of the day), so a visit's later pageviews land
 * on the row its first one did.
 *
 * Decided in the writer's transaction, under the app's analytics lock (AnalyticsWriter), so the
 * database's answer is exact however many instances write. What costs a query is a value this
 * process has not seen with a row: it remembers the values it saw with rows (a bounded cache), so
 * in the steady state — the same pages over and over — a batch asks nothing; a batch with values
 * it does not know asks twice (which of them have rows; how many rows each property has).
 */
@Injectable()
export class RollupCardinality {
  /** Values known to have their own row, by app, day and dimension; least recently used first. */
  private readonly remembered = new Map<string, Set<string>>();
  private rememberedCount = 0;

  constructor(
    private readonly db: Transactions,
    private readonly repository: AnalyticsEventsRepository,
  ) {}

  /**
   * Decides, in the running transaction (under the apps' analytics locks), which of these values
   * get their own row; in order, so that the first to come take the room left.
   */
  async fold(candidates: RollupValue[]): Promise<Fold> {
    const unknown: RollupValue[] = [];
    const seen = new Set<string>();
    for (const c of candidates) {
      if (c.dimension === '' || c.value === OTHER) continue;
      const key = `${keyOf(c.appId, c.day, c.dimension)}\u0000${c.value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (!this.recall(c)) unknown.push(c);
    }
    if (unknown.length === 0) return (_appId, _day, _dimension, value) => value;

    const existing = await this.repository.existingRollupValues(unknown);
    const groups = new Map<string, { appId: string; day: string; dimension: string; index: number }>();
    for (const c of unknown) {
      const key = keyOf(c.appId, c.day, c.dimension);
      if (!groups.has(key)) groups.set(key, { appId: c.appId, day: c.day, dimension: c.dimension, index: groups.size });
    }
    const counts = await this.repository.rollupValueCounts([...groups.values()], OTHER, MAX_VALUES_PER_DAY);
    const folded = new Set<string>();
    const kept: RollupValue[] = [];
    unknown.forEach((c, i) => {
      const key = keyOf(c.appId, c.day, c.dimension);
      const group = groups.get(key)!;
      if (existing.has(i)) return void kept.push(c);
      if (counts[group.index] < MAX_VALUES_PER_DAY) {
        counts[group.index]++;
        kept.push(c);
      } else folded.add(`${key}\u0000${c.value}`);
    });
    // Only once committed is a new row sure to be there.
    this.db.afterCommit(() => kept.forEach((c) => this.remember(c)));
    if (folded.size === 0) return (_appId, _day, _dimension, value) => value;
    return (appId, day, dimension, value) => (folded.has(`${keyOf(appId, day, dimension)}\u0000${value}`) ? OTHER : value);
  }

  /** Whether `c` is known to have its row; marks its group as just used. */
  private recall(c: RollupValue): boolean {
    const key = keyOf(c.appId, c.day, c.dimension);
    const values = this.remembered.get(key);
    if (!values) return false;
    this.remembered.delete(key);
    this.remembered.set(key, values);
    return values.has(c.value);
  }

  private remember(c: RollupValue): void {
    const key = keyOf(c.appId, c.day, c.dimension);
    let values = this.remembered.get(key);
    if (!values) this.remembered.set(key, (values = new Set()));
    if (values.has(c.value)) return;
    values.add(c.value);
    this.rememberedCount++;
    for (const [oldest, oldValues] of this.remembered) {
      if (this.rememberedCount <= MAX_REMEMBERED || oldest === key) break;
      this.remembered.delete(oldest);
      this.rememberedCount -= oldValues.size;
    }
  }

  /** Forgets everything remembered (as a restart would; for tests). */
  forget(): void {
    this.remembered.clear();
    this.rememberedCount = 0;
  }
}

import { Injectable } from '@nestjs/common';
import { Transactions } from '../database/transactions.js';
import { AnalyticsEventsRepository, RollupValue } from './analytics-events.repository.js';
import { EVENT_PROPS_PREFIX, EVENT_PROPS_SEPARATOR, eventPropsParts, PROPS_PREFIX } from './dimensions.js';

/** Distinct values each breakdown property keeps per app and day; the rest count under OTHER. */
export const MAX_VALUES_PER_DAY = 1000;
/** Distinct props keys (`props.<key>` dimensions) with rollup rows per app and day; further keys get no rows (the raw events keep them). */
export const MAX_PROPS_KEYS_PER_DAY = 100;
/** The rollup value the values past MAX_VALUES_PER_DAY count under. */
export const OTHER = '(other)';
/** Values this process remembers to have a row (about 100 bytes each); beyond, the least recently used days of apps are forgotten. */
const MAX_REMEMBERED = 200_000;

/** Answers the value a rollup row is written under: the value itself, OTHER, or null for a props key past MAX_PROPS_KEYS_PER_DAY (no row). */
export type Fold = (appId: string, day: string, dimension: string, value: string) => string | null;

const keyOf = (appId: string, day: string, dimension: string) => `${appId}\u0000${day}\u0000${dimension}`;

/**
 * Bounded cardinality of the rollups: per app, day and breakdown property, the first
 * MAX_VALUES_PER_DAY distinct values get their own row and any further one counts under `(other)`,
 * so a flood of unique paths (or sources, campaigns…) adds one row, not one per value. The totals
 * (dimension '') are never folded. Props keys are capped too: per app and day, the first
 * MAX_PROPS_KEYS_PER_DAY keys get rows, a further key none at all (its rows would be new
 * dimensions, which `(other)` cannot bound). A value keeps its row all day once it has one, and one folded
 * stays folded (the property is full for the rest of the day), so a visit's later pageviews land
 * on the row its first one did.
 *
 * Decided in the writer's transaction, under the app's analytics lock (AnalyticsWriter), so the
 * database's answer is exact however many instances write. What costs a query is a value this
 * process has not seen with a row: it remembers the values it saw with rows (a bounded cache), so
 * in the steady state — the same pages over and over — a batch asks nothing; a batch with values
 * it does not know asks twice (which of them have rows; how many rows each property has).
 *
 * The internal `evt+props.<key>` rows (an event name and a props value together, see dimensions.ts) are
 * not bounded on their own: each part folds as its own dimension does that day (the name as `event`,
 * the value as `props.<key>`; no row at all when the key has none), so they count nothing `(other)` does
 * not, take no props-key place and cost no query.
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
      if (c.dimension === '' || c.value === OTHER || c.dimension.startsWith(EVENT_PROPS_PREFIX)) continue;
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
    // A props key without rows yet takes one of its app's and day's MAX_PROPS_KEYS_PER_DAY places, if one is left.
    const days = new Map<string, { appId: string; day: string; index: number }>();
    for (const g of groups.values())
      if (g.dimension.startsWith(PROPS_PREFIX) && counts[g.index] === 0 && !days.has(`${g.appId}\u0000${g.day}`))
        days.set(`${g.appId}\u0000${g.day}`, { appId: g.appId, day: g.day, index: days.size });
    const keyCounts = await this.repository.rollupDimensionCounts([...days.values()], PROPS_PREFIX, MAX_PROPS_KEYS_PER_DAY);
    const admitted = new Set<string>();
    const dropped = new Set<string>();
    const folded = new Set<string>();
    const kept: RollupValue[] = [];
    unknown.forEach((c, i) => {
      const key = keyOf(c.appId, c.day, c.dimension);
      const group = groups.get(key)!;
      if (existing.has(i)) return void kept.push(c);
      const day = days.get(`${c.appId}\u0000${c.day}`);
      if (day && c.dimension.startsWith(PROPS_PREFIX) && counts[group.index] === 0 && !admitted.has(key)) {
        if (dropped.has(key) || keyCounts[day.index] >= MAX_PROPS_KEYS_PER_DAY) return void dropped.add(key);
        keyCounts[day.index]++;
        admitted.add(key);
      }
      if (counts[group.index] < MAX_VALUES_PER_DAY) {
        counts[group.index]++;
        kept.push(c);
      } else folded.add(`${key}\u0000${c.value}`);
    });
    // Only once committed is a new row sure to be there.
    this.db.afterCommit(() => kept.forEach((c) => this.remember(c)));
    if (folded.size === 0 && dropped.size === 0) return (_appId, _day, _dimension, value) => value;
    return byParts((appId, day, dimension, value) => {
      const key = keyOf(appId, day, dimension);
      return dropped.has(key) ? null : folded.has(`${key}\u0000${value}`) ? OTHER : value;
    });
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

/** `fold`, with an `evt+props.<key>` value folded part by part: the name as `event`, the props value as `props.<key>` (null if that is). */
export function byParts(fold: Fold): Fold {
  return (appId, day, dimension, value) => {
    const parts = eventPropsParts(dimension, value);
    if (!parts) return fold(appId, day, dimension, value);
    const propsValue = fold(appId, day, parts.propsDimension, parts.propsValue);
    if (propsValue === null) return null;
    return `${fold(appId, day, 'event', parts.event) ?? OTHER}${EVENT_PROPS_SEPARATOR}${propsValue}`;
  };
}

import type { Transactions } from '../database/transactions.js';
import type { AnalyticsEventsRepository, RollupValue } from './analytics-events.repository.js';
import { MAX_PROPS_KEYS_PER_DAY, MAX_VALUES_PER_DAY, RollupCardinality } from './rollup-cardinality.js';

/** A repository over an in-memory set of rollup rows (app, day, dimension, value). */
function fakeRepository(rows: RollupValue[]): AnalyticsEventsRepository {
  const has = (v: RollupValue) => rows.some((r) => r.appId === v.appId && r.day === v.day && r.dimension === v.dimension && r.value === v.value);
  return {
    existingRollupValues: async (values: RollupValue[]) => new Set(values.flatMap((v, i) => (has(v) ? [i] : []))),
    rollupValueCounts: async (groups: Array<Omit<RollupValue, 'value'>>, other: string, upTo: number) =>
      groups.map((g) => Math.min(upTo, rows.filter((r) => r.appId === g.appId && r.day === g.day && r.dimension === g.dimension && r.value !== other).length)),
    rollupDimensionCounts: async (groups: Array<{ appId: string; day: string }>, prefix: string, upTo: number) =>
      groups.map((g) =>
        Math.min(upTo, new Set(rows.filter((r) => r.appId === g.appId && r.day === g.day && r.dimension.startsWith(prefix)).map((r) => r.dimension)).size),
      ),
  } as unknown as AnalyticsEventsRepository;
}
const noTransactions = { afterCommit: () => undefined } as unknown as Transactions;
const row = (dimension: string, value: string, day = '2026-11-29', appId = 'app_a'): RollupValue => ({ appId, day, dimension, value });

describe('RollupCardinality: props keys per app and day', () => {
  it('gives rows to the first MAX_PROPS_KEYS_PER_DAY keys of the day, none to further keys; other days and apps and fixed properties keep theirs', async () => {
    const existing = Array.from({ length: MAX_PROPS_KEYS_PER_DAY - 1 }, (_, i) => row(`props.k${i}`, 'x'));
    const cardinality = new RollupCardinality(noTransactions, fakeRepository(existing));
    const fold = await cardinality.fold([
      row('props.k0', 'new value'),
      row('props.last', 'a'),
      row('props.last', 'b'),
      row('props.extra', 'a'),
      row('props.extra', 'a', '2026-11-30'),
      row('props.extra', 'a', '2026-11-29', 'app_b'),
      row('page', '/new'),
    ]);
    expect(fold('app_a', '2026-11-29', 'props.k0', 'new value')).toBe('new value');
    // The 100th key takes the last place, for all its values; the 101st gets no row.
    expect(fold('app_a', '2026-11-29', 'props.last', 'a')).toBe('a');
    expect(fold('app_a', '2026-11-29', 'props.last', 'b')).toBe('b');
    expect(fold('app_a', '2026-11-29', 'props.extra', 'a')).toBeNull();
    expect(fold('app_a', '2026-11-30', 'props.extra', 'a')).toBe('a');
    expect(fold('app_b', '2026-11-29', 'props.extra', 'a')).toBe('a');
    expect(fold('app_a', '2026-11-29', 'page', '/new')).toBe('/new');
  });

  it('keeps a full day full in a later batch, while a key with rows keeps taking values', async () => {
    const existing = Array.from({ length: MAX_PROPS_KEYS_PER_DAY }, (_, i) => row(`props.k${i}`, 'x'));
    const cardinality = new RollupCardinality(noTransactions, fakeRepository(existing));
    const fold = await cardinality.fold([row('props.late', 'a'), row('props.k5', 'y')]);
    expect(fold('app_a', '2026-11-29', 'props.late', 'a')).toBeNull();
    expect(fold('app_a', '2026-11-29', 'props.k5', 'y')).toBe('y');
  });
});

describe('RollupCardinality: evt+props.<key> rows fold part by part', () => {
  it('folds the name as `event` and the value as `props.<key>` fold, leaves the row out with its key, and asks nothing for them', async () => {
    const existing = [
      ...Array.from({ length: MAX_VALUES_PER_DAY }, (_, i) => row('event', `e${i}`)),
      ...Array.from({ length: MAX_VALUES_PER_DAY }, (_, i) => row('props.format', `f${i}`)),
      // With props.format, one place short of the day's MAX_PROPS_KEYS_PER_DAY keys.
      ...Array.from({ length: MAX_PROPS_KEYS_PER_DAY - 2 }, (_, i) => row(`props.k${i}`, 'x')),
    ];
    const repository = fakeRepository(existing);
    const asked: RollupValue[] = [];
    const existingRollupValues = repository.existingRollupValues.bind(repository);
    repository.existingRollupValues = async (values: RollupValue[]) => (asked.push(...values), existingRollupValues(values));
    const cardinality = new RollupCardinality(noTransactions, repository);
    const fold = await cardinality.fold([
      row('event', 'e1'),
      row('event', 'Late'),
      row('props.format', 'f2'),
      row('props.format', 'new'),
      row('props.size', 'big'),
      row('props.extra', 'a'),
      row('evt+props.format', 'e1\u001ef2'),
    ]);
    expect(asked.some((v) => v.dimension.startsWith('evt+props.'))).toBe(false);
    expect(fold('app_a', '2026-11-29', 'evt+props.format', 'e1\u001ef2')).toBe('e1\u001ef2');
    expect(fold('app_a', '2026-11-29', 'evt+props.format', 'Late\u001ef2')).toBe('(other)\u001ef2');
    expect(fold('app_a', '2026-11-29', 'evt+props.format', 'Late\u001enew')).toBe('(other)\u001e(other)');
    // props.size takes the day's last key place; props.extra gets none, nor does its evt+props row.
    expect(fold('app_a', '2026-11-29', 'evt+props.size', 'e1\u001ebig')).toBe('e1\u001ebig');
    expect(fold('app_a', '2026-11-29', 'evt+props.extra', 'e1\u001ea')).toBeNull();
  });
});

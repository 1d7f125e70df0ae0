import { lastCompletePeriod, periodEnd, previousPeriod } from './report-periods.js';

describe('report periods', () => {
  it('weekly: the previous ISO week, Monday to Sunday, whatever day it is', () => {
    // 2026-11-30 is a Monday.
    expect(lastCompletePeriod('weekly', new Date('2026-11-30T00:00:00Z'))).toEqual({ kind: 'weekly', from: '2026-11-23', to: '2026-11-29' });
    expect(lastCompletePeriod('weekly', new Date('2026-12-06T23:59:59Z'))).toEqual({ kind: 'weekly', from: '2026-11-23', to: '2026-11-29' });
    expect(lastCompletePeriod('weekly', new Date('2026-11-29T12:00:00Z'))).toEqual({ kind: 'weekly', from: '2026-11-16', to: '2026-11-22' });
    // Across a year's end.
    expect(lastCompletePeriod('weekly', new Date('2027-01-01T08:00:00Z'))).toEqual({ kind: 'weekly', from: '2026-12-21', to: '2026-12-27' });
  });

  it('monthly: the previous calendar month, February and January included', () => {
    expect(lastCompletePeriod('monthly', new Date('2026-12-01T00:00:00Z'))).toEqual({ kind: 'monthly', from: '2026-11-01', to: '2026-11-30' });
    expect(lastCompletePeriod('monthly', new Date('2028-03-15T00:00:00Z'))).toEqual({ kind: 'monthly', from: '2028-02-01', to: '2028-02-29' });
    expect(lastCompletePeriod('monthly', new Date('2027-01-01T00:00:00Z'))).toEqual({ kind: 'monthly', from: '2026-12-01', to: '2026-12-31' });
  });

  it('the period before, and the end', () => {
    const week = { kind: 'weekly' as const, from: '2026-11-23', to: '2026-11-29' };
    expect(previousPeriod(week)).toEqual({ kind: 'weekly', from: '2026-11-16', to: '2026-11-22' });
    expect(previousPeriod({ kind: 'monthly', from: '2026-03-01', to: '2026-03-31' })).toEqual({ kind: 'monthly', from: '2026-02-01', to: '2026-02-28' });
    expect(periodEnd(week).toISOString()).toBe('2026-11-30T00:00:00.000Z');
  });
});

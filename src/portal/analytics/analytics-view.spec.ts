import { bucketLabel, tickIndexes, timeseriesChart, yScale } from '../svg-chart.js';
import { dashboardHref, dashboardQuery, filtersParam, formatChange, formatDuration, formatMetric, previousRange, rangeLabel } from './analytics-view.js';

describe('the analytics dashboard’s view', () => {
  it('reads its query string: known periods and metrics only, a filter per property, no value the API cannot take', () => {
    expect(dashboardQuery({})).toEqual({ period: '30d', filters: [], metric: 'visitors' });
    expect(dashboardQuery({ period: 'forever', metric: 'nonsense' })).toEqual({ period: '30d', filters: [], metric: 'visitors' });
    const query = dashboardQuery({ period: 'custom', from: '2026-11-01', to: '2026-11-03', page: '/pricing', device: ['mobile', 'tablet'], source: 'a;b' });
    expect(query).toEqual({
      period: 'custom',
      from: '2026-11-01',
      to: '2026-11-03',
      filters: [
        { property: 'page', value: '/pricing' },
        { property: 'device', value: 'mobile' },
      ],
      metric: 'visitors',
    });
    expect(filtersParam(query)).toBe('page==/pricing;device==mobile');
  });

  it('builds addresses that keep the rest of the view', () => {
    const base = '/portal/apps/app_1/analytics';
    const query = dashboardQuery({ period: '7d', page: '/a b', metric: 'signups' });
    expect(dashboardHref(base, query)).toBe(`${base}?period=7d&page=%2Fa+b&metric=signups`);
    expect(dashboardHref(base, query, { page: undefined, period: '30d' })).toBe(`${base}?period=30d&metric=signups`);
    expect(dashboardHref(base, dashboardQuery({}))).toBe(base);
    expect(dashboardHref(base, dashboardQuery({ period: 'custom', from: '2026-01-01', to: '2026-01-02' }), { period: 'day' })).toBe(`${base}?period=day`);
  });

  it('says figures with their units, and changes in percent or points', () => {
    expect(formatDuration(73)).toBe('1m 13s');
    expect(formatDuration(7500)).toBe('2h 5m');
    expect(formatMetric('percent', 41)).toBe('41 %');
    expect(formatMetric('percent', 3.25)).toBe('3.3 %');
    expect(formatMetric('count', 12345)).toBe('12,345');
    expect(formatChange('count', 15, 5)).toEqual({ text: '+200 %', direction: 'up' });
    expect(formatChange('count', 1, 0)).toEqual({ text: 'new', direction: 'up' });
    expect(formatChange('count', 0, 0)).toBeNull();
    expect(formatChange('percent', 38.5, 41)).toEqual({ text: '−2.5 pts', direction: 'down' });
    expect(previousRange({ from: '2026-11-01', to: '2026-11-30' })).toEqual({ from: '2026-10-02', to: '2026-10-31' });
    expect(rangeLabel({ from: '2025-12-01', to: '2026-11-25' })).toBe('Dec 1, 2025 – Nov 25, 2026');
    expect(rangeLabel({ from: '2026-11-25', to: '2026-11-25' })).toBe('Nov 25, 2026');
  });

  it('draws a chart with round y-axis steps, at most 6 dated ticks, and its figures as a table', () => {
    expect(yScale(0)).toEqual({ top: 4, step: 1 });
    expect(yScale(11)).toEqual({ top: 12, step: 3 });
    expect(yScale(950)).toEqual({ top: 1000, step: 250 });
    expect(yScale(41.7, 100)).toEqual({ top: 80, step: 20 });
    expect(yScale(97, 100)).toEqual({ top: 100, step: 25 });
    expect(tickIndexes(24)).toEqual([0, 5, 9, 14, 18, 23]);
    expect(tickIndexes(3)).toEqual([0, 1, 2]);
    expect(bucketLabel('2026-01-01', 'month')).toBe('Jan 2026');
    expect(bucketLabel('2026-03-01', 'month')).toBe('Mar');
    expect(bucketLabel('2026-03-01', 'month', true)).toBe('Mar 2026');
    expect(bucketLabel('2026-11-03T14:00:00Z', 'hour')).toBe('14:00');
    const svg = timeseriesChart({
      id: 'c',
      title: 'Visitors <per> day',
      metric: 'Visitors',
      interval: 'day',
      points: [
        { date: '2026-11-02', value: 3 },
        { date: '2026-11-03', value: 0 },
      ],
    });
    expect(svg).toContain('<title id="c-title">Visitors &lt;per&gt; day</title>');
    expect(svg).toContain('<desc id="c-desc">2 days, Mon, Nov 2, 2026 to Tue, Nov 3, 2026; total 3; highest 3 on Mon, Nov 2, 2026</desc>');
    expect(svg).toContain('<tr><th scope="row">Mon, Nov 2, 2026</th><td>3</td></tr>');
    expect([...svg.matchAll(/class="chart-x"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(['Nov 2', 'Nov 3']);
  });
});

import { MetricsService } from '../metrics/metrics.service.js';
import { STALLED_AFTER_MS, WritePaths } from './write-paths.js';

describe('WritePaths', () => {
  const setUp = () => {
    const metrics = new MetricsService();
    const paths = new WritePaths(metrics);
    let now = 1_000_000;
    paths.now = () => now;
    return { metrics, paths, advance: (ms: number) => (now += ms) };
  };

  it('counts rows set aside per writer, and does not count an outage as failing until it lasts over 30 s', async () => {
    const { metrics, paths, advance } = setUp();
    let down = false;
    const writer = paths.writer<number>('analytics', async (items) => {
      if (down) throw new Error('Connection terminated');
      if (items.includes(-1)) throw Object.assign(new Error('invalid byte sequence'), { severity: 'ERROR', code: '22021' });
    });
    await writer.write([1, -1, 2]);
    expect(await metrics.registry.getSingleMetricAsString('batch_rows_set_aside_total')).toContain('batch_rows_set_aside_total{writer="analytics"} 1');
    expect(paths.failing()).toEqual([]);

    down = true;
    await writer.write([3]);
    advance(STALLED_AFTER_MS);
    await writer.write([3]);
    expect(paths.stalled()).toEqual([]);
    advance(1);
    expect(paths.stalled()).toEqual([{ name: 'analytics', failingMs: STALLED_AFTER_MS + 1 }]);
    down = false;
    await writer.write([3]);
    expect(paths.failing()).toEqual([]);
  });
});

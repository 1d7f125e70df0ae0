import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { AppConfig } from '../config/app-config.js';
import { WritePaths } from '../health/write-paths.js';
import { MetricsService } from '../metrics/metrics.service.js';
import type { AnalyticsEvent } from './analytics-event.js';
import { AnalyticsBuffer, BATCH_SIZE } from './analytics-buffer.js';
import type { AnalyticsInboxRepository } from './analytics-inbox.repository.js';
import type { AnalyticsStitcher } from './analytics-stitcher.js';

describe('AnalyticsBuffer', () => {
  /** A buffer over an inbox whose writes wait until `release` (or fail while `down`): the sizes of the batches it was given. */
  const bufferOverSlowInbox = () => {
    const batches: number[] = [];
    const state = { down: false, release: () => {} };
    const inbox = {
      append: (events: AnalyticsEvent[]) => {
        batches.push(events.length);
        if (state.down) return Promise.reject(new Error('connect ECONNREFUSED'));
        return new Promise<void>((resolve) => (state.release = resolve));
      },
    } as unknown as AnalyticsInboxRepository;
    const metrics = new MetricsService();
    const jobs = new PeriodicJobs(Object.assign(new AppConfig(), { APP_ROLE: 'api' }));
    const buffer = new AnalyticsBuffer(inbox, { runsHere: false } as AnalyticsStitcher, metrics, new WritePaths(metrics), jobs);
    return { buffer, batches, state };
  };
  const event = { appId: 'app_1' } as AnalyticsEvent;
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('writes full batches while events keep coming, never one small batch per event that arrived during a write', async () => {
    const { buffer, batches, state } = bufferOverSlowInbox();
    for (let i = 0; i < BATCH_SIZE; i++) expect(buffer.add(event)).toBeUndefined(); // no promise: the beacon is answered at once
    expect(batches).toEqual([BATCH_SIZE]);
    // While that write is under way, a batch and a half more arrive.
    for (let i = 0; i < BATCH_SIZE * 1.5; i++) void buffer.add(event);
    state.release();
    await settle();
    expect(batches).toEqual([BATCH_SIZE, BATCH_SIZE]); // the full one follows; the half waits for the timer
    state.release();
    await settle();
    expect(batches).toEqual([BATCH_SIZE, BATCH_SIZE]);
    const flushed = buffer.flush();
    await settle();
    state.release();
    await flushed;
    expect(batches).toEqual([BATCH_SIZE, BATCH_SIZE, BATCH_SIZE / 2]);
  });

  it('after an outage leaves retries to the timer, not to every event that arrives', async () => {
    const { buffer, batches, state } = bufferOverSlowInbox();
    const warnings: string[] = [];
    Object.assign(buffer, { logger: { warn: (message: string) => warnings.push(message) } }); // kept, not printed
    state.down = true;
    for (let i = 0; i < BATCH_SIZE; i++) void buffer.add(event);
    await settle();
    const tries = batches.length;
    expect(tries).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 100; i++) void buffer.add(event);
    await settle();
    expect(batches.length).toBe(tries);
    state.down = false;
    const flushed = buffer.flush(); // the timer's run
    await settle();
    state.release();
    await settle();
    state.release();
    await flushed;
    expect(batches.slice(tries)).toEqual([BATCH_SIZE, 100]);
    expect(warnings).toEqual([expect.stringContaining('Could not write 1000 analytics event(s), will retry: connect ECONNREFUSED')]);
  });
});

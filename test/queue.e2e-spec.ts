import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { QueueService } from '../src/queue/queue.service.js';
import { JobDeferred } from '../src/queue/queue.types.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

/** Records what the queue did with each test job. */
@Injectable()
class Recorder implements OnModuleInit {
  readonly runs: Array<{ job: string; attempt: number; at: number }> = [];
  active = 0;
  maxActive = 0;
  private readonly deferrals = new Map<string, number>();
  /** Opens the last run of a churning job, which holds until then. */
  release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));

  constructor(private readonly queue: QueueService) {}

  onModuleInit(): void {
    this.queue.registerProcessor<{ key: string; failTimes: number }>('maintenance', 'test-flaky', async (data, job) => {
      this.runs.push({ job: data.key, attempt: job.attempt, at: Date.now() });
      if (job.attempt <= data.failTimes) throw new Error(`planned failure ${job.attempt}`);
    });
    type Deferred = { key: string; deferTimes: number; failTimes: number; deferMs?: number; holdLastRun?: boolean };
    this.queue.registerProcessor<Deferred>('maintenance', 'test-deferred', async (data, job) => {
      this.runs.push({ job: data.key, attempt: job.attempt, at: Date.now() });
      const deferred = this.deferrals.get(data.key) ?? 0;
      if (deferred < data.deferTimes) {
        this.deferrals.set(data.key, deferred + 1);
        throw new JobDeferred(data.deferMs ?? 50);
      }
      if (job.attempt <= data.failTimes) throw new Error(`planned failure ${job.attempt}`);
      if (data.holdLastRun) await this.released;
    });
    this.queue.registerProcessor<{ key: string }>(
      'maintenance',
      'test-slow',
      async (data, job) => {
        this.active++;
        this.maxActive = Math.max(this.maxActive, this.active);
        this.runs.push({ job: data.key, attempt: job.attempt, at: Date.now() });
        await new Promise((r) => setTimeout(r, 150));
        this.active--;
      },
      { concurrency: 2 },
    );
  }

  runsOf(key: string) {
    return this.runs.filter((r) => r.job === key);
  }
}

@Module({ providers: [Recorder] })
class RecorderModule {}

describe(`queue service (${target}: ${process.env.REDIS_URL && target === 'postgres' ? 'Bull on Redis' : 'in-process'})`, () => {
  let app: TestApp;
  let queue: QueueService;
  let recorder: Recorder;

  beforeAll(async () => {
    app = await startTestApp({ modules: [RecorderModule] });
    queue = app.server.app.get(QueueService);
    recorder = app.server.app.get(Recorder);
  });
  afterAll(() => app.close());

  it('retries a failing job with growing, jittered gaps until it succeeds', async () => {
    await queue.add('maintenance', 'test-flaky', { key: 'flaky', failTimes: 3 }, { attempts: 4, backoffMs: 100 });
    await until(() => recorder.runsOf('flaky').length === 4);
    const runs = recorder.runsOf('flaky');
    expect(runs.map((r) => r.attempt)).toEqual([1, 2, 3, 4]);
    const gaps = runs.slice(1).map((r, i) => r.at - runs[i].at);
    // base·2^(n-1)·[0.5, 1): 50–100, 100–200, 200–400 ms (plus scheduling slack)
    expect(gaps[0]).toBeGreaterThanOrEqual(45);
    expect(gaps[1]).toBeGreaterThanOrEqual(95);
    expect(gaps[2]).toBeGreaterThanOrEqual(195);
    expect(gaps[2]).toBeGreaterThan(gaps[0]);
  });

  it('stops after the last attempt', async () => {
    await queue.add('maintenance', 'test-flaky', { key: 'doomed', failTimes: 99 }, { attempts: 2, backoffMs: 10, jobId: 'doomed-id' });
    await until(() => recorder.runsOf('doomed').length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(recorder.runsOf('doomed')).toHaveLength(2);
    // Failed for good (Bull keeps it for inspection): no longer live.
    expect(await queue.isLive('maintenance', 'doomed-id')).toBe(false);
  });

  it('hands a deferred job back delayed, without counting the try: it still gets all its attempts', async () => {
    await queue.add('maintenance', 'test-deferred', { key: 'deferred', deferTimes: 3, failTimes: 1 }, { attempts: 2, backoffMs: 10, jobId: 'deferred-id' });
    await until(() => recorder.runsOf('deferred').length === 2);
    // Deferred twice so far: waiting its delay, still live.
    expect(await queue.isLive('maintenance', 'deferred-id')).toBe(true);
    await until(() => recorder.runsOf('deferred').length === 5);
    const runs = recorder.runsOf('deferred');
    // Three deferrals of the first try, then the first try (fails), then the second (succeeds).
    expect(runs.map((r) => r.attempt)).toEqual([1, 1, 1, 1, 2]);
    expect(runs[1].at - runs[0].at).toBeGreaterThanOrEqual(45);
    await until(() => recorder.active === 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(recorder.runsOf('deferred')).toHaveLength(5);
    expect(await queue.isLive('maintenance', 'deferred-id')).toBe(false);
  });

  it('answers a job live at every look while it moves between delayed, waiting and active', async () => {
    // A job deferred by 1 ms, 40 times, changes lists every few milliseconds; its last run holds until released, so
    // every answer asked before that (even one still in flight) must be "live".
    const deferTimes = 40;
    const data = { key: 'churn', deferTimes, failTimes: 0, deferMs: 1, holdLastRun: true };
    await queue.add('maintenance', 'test-deferred', data, { jobId: 'churn-id' });
    const answers: boolean[] = [];
    try {
      while (recorder.runsOf('churn').length <= deferTimes) {
        answers.push(await queue.isLive('maintenance', 'churn-id'));
        await new Promise((r) => setImmediate(r)); // the in-process queue answers without yielding to its timers
      }
    } finally {
      recorder.release();
    }
    expect(answers.length).toBeGreaterThan(5);
    expect(answers.filter((live) => !live)).toEqual([]);
    // Done: completed jobs are removed, so it turns "not live" once Bull has recorded the completion.
    await until(async () => !(await queue.isLive('maintenance', 'churn-id')), 5_000, 'the released job no longer live');
  });

  it('waits for a delay before the first try', async () => {
    const added = Date.now();
    await queue.add('maintenance', 'test-flaky', { key: 'delayed', failTimes: 0 }, { delayMs: 300 });
    await until(() => recorder.runsOf('delayed').length === 1);
    expect(recorder.runsOf('delayed')[0].at - added).toBeGreaterThanOrEqual(290);
  });

  it("runs at most as many jobs at once as the queue processors' concurrencies add up to (1 + 1 + 2)", async () => {
    for (let i = 0; i < 5; i++) await queue.add('maintenance', 'test-slow', { key: `slow-${i}` });
    await until(() => recorder.runs.filter((r) => r.job.startsWith('slow-')).length === 5);
    await until(() => recorder.active === 0);
    expect(recorder.maxActive).toBe(4);
  });

  it('adds a job id only once while it is live, and again once it is done', async () => {
    await queue.add('maintenance', 'test-flaky', { key: 'dedupe', failTimes: 0 }, { jobId: 'same-id', delayMs: 200 });
    expect(await queue.isLive('maintenance', 'same-id')).toBe(true);
    await queue.add('maintenance', 'test-flaky', { key: 'dedupe', failTimes: 0 }, { jobId: 'same-id', delayMs: 200 });
    await until(() => recorder.runsOf('dedupe').length === 1);
    await until(() => recorder.active === 0);
    await new Promise((r) => setTimeout(r, 100));
    expect(await queue.isLive('maintenance', 'same-id')).toBe(false);
    expect(recorder.runsOf('dedupe')).toHaveLength(1);
    await queue.add('maintenance', 'test-flaky', { key: 'dedupe', failTimes: 0 }, { jobId: 'same-id' });
    await until(() => recorder.runsOf('dedupe').length === 2);
  });
});

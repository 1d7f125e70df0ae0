import { Logger } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../../config/app-config.js';
import { type JobTick, type PeriodicJobSpec, PeriodicJobs } from './periodic-jobs.js';

/** A run that waits until released; counts runs and how many were in progress at once. */
function gatedRun() {
  const state = { runs: 0, inProgress: 0, mostAtOnce: 0, ticks: [] as JobTick[], release: () => {} };
  let gate = new Promise<void>((resolve) => (state.release = resolve));
  const run = async (tick: JobTick) => {
    state.runs++;
    state.ticks.push(tick);
    state.mostAtOnce = Math.max(state.mostAtOnce, ++state.inProgress);
    try {
      await gate;
    } finally {
      state.inProgress--;
    }
  };
  const open = () => {
    state.release();
    gate = Promise.resolve();
  };
  return { state, run, open };
}

function jobsAs(role: AppConfig['APP_ROLE']): PeriodicJobs {
  return new PeriodicJobs(Object.assign(new AppConfig(), { APP_ROLE: role }));
}

const every = (ms: number, spec: Partial<PeriodicJobSpec> & Pick<PeriodicJobSpec, 'run'>): PeriodicJobSpec => ({
  name: 'test-job',
  schedule: { everyMs: ms },
  runsOn: 'every-instance',
  ...spec,
});

async function stop(jobs: PeriodicJobs): Promise<void> {
  jobs.beforeApplicationShutdown();
  await jobs.onApplicationShutdown();
}

describe('PeriodicJobs', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it('runs a job on its schedule once started, never two runs at once', async () => {
    const jobs = jobsAs('all');
    const { state, run, open } = gatedRun();
    const job = jobs.add(every(5, { run }));
    await sleep(30);
    expect(state.runs).toBe(0); // not before the application has started
    jobs.onApplicationBootstrap();
    await sleep(60); // a dozen times come while the first run waits
    expect(state.runs).toBe(1);
    const joined = job.runNow(); // a caller joins the run in progress
    open();
    await joined;
    expect(state.runs).toBe(1);
    await sleep(100);
    expect(state.runs).toBeGreaterThan(2);
    expect(state.mostAtOnce).toBe(1);
    expect(state.ticks[0].reason).toBe('schedule');
    await stop(jobs);
  });

  it('runs worker jobs only where workers run (APP_ROLE), jobs of every instance everywhere', async () => {
    const seen: string[] = [];
    for (const role of ['api', 'worker', 'all'] as const) {
      const jobs = jobsAs(role);
      for (const runsOn of ['workers', 'every-instance'] as const) {
        jobs.add(every(5, { runsOn, atStart: true, atShutdown: true, run: async ({ reason }) => void seen.push(`${role}/${runsOn}/${reason}`) }));
      }
      jobs.onApplicationBootstrap();
      await sleep(20);
      await stop(jobs);
    }
    const where = new Set(seen.map((s) => s.split('/').slice(0, 2).join('/')));
    expect([...where].sort()).toEqual(['all/every-instance', 'all/workers', 'api/every-instance', 'worker/every-instance', 'worker/workers']);
    expect(seen).toEqual(expect.arrayContaining(['api/every-instance/start', 'api/every-instance/schedule', 'api/every-instance/shutdown']));
  });

  it('runs at start and once more at shutdown when asked, after the run in progress', async () => {
    const jobs = jobsAs('all');
    const { state, run, open } = gatedRun();
    jobs.add(every(60_000, { atStart: true, atShutdown: true, run }));
    jobs.onApplicationBootstrap();
    await sleep(10);
    expect(state.ticks.map((t) => t.reason)).toEqual(['start']);
    jobs.beforeApplicationShutdown();
    expect(state.ticks[0].signal.aborted).toBe(true); // a long run can stop between its batches
    const stopped = jobs.onApplicationShutdown();
    await sleep(10);
    expect(state.runs).toBe(1); // the last run waits for the one in progress
    open();
    await stopped;
    expect(state.ticks.map((t) => t.reason)).toEqual(['start', 'shutdown']);
    expect(state.mostAtOnce).toBe(1);
  });

  it('waits at shutdown for the run in progress, up to its deadline', async () => {
    const jobs = jobsAs('all');
    const quick = gatedRun();
    const stuck = gatedRun();
    jobs.add(every(5, { name: 'quick', shutdownDeadlineMs: 1000, run: quick.run }));
    jobs.add(every(5, { name: 'stuck', shutdownDeadlineMs: 100, run: stuck.run }));
    jobs.onApplicationBootstrap();
    await sleep(20);
    expect([quick.state.inProgress, stuck.state.inProgress]).toEqual([1, 1]);
    setTimeout(() => quick.open(), 50);
    const started = Date.now();
    await stop(jobs);
    const took = Date.now() - started;
    expect(quick.state.inProgress).toBe(0); // waited for
    expect(stuck.state.inProgress).toBe(1); // given up on at its deadline
    expect(took).toBeGreaterThanOrEqual(95);
    expect(took).toBeLessThan(900);
    await sleep(30);
    expect([quick.state.runs, stuck.state.runs]).toEqual([1, 1]); // nothing runs after the stop
    stuck.open();
  });

  it('logs a failed run and runs again at the next time', async () => {
    const jobs = jobsAs('all');
    let runs = 0;
    const job = jobs.add(
      every(5, {
        run: async () => {
          if (++runs === 1) throw new Error('database down');
        },
      }),
    );
    await expect(job.runNow()).resolves.toBeUndefined();
    jobs.onApplicationBootstrap();
    await sleep(30);
    expect(runs).toBeGreaterThan(1);
    await stop(jobs);
  });

  it('runs a cron job at the times of its expression', async () => {
    const jobs = jobsAs('all');
    const at: number[] = [];
    jobs.add({ name: 'cron-job', schedule: { cron: '* * * * * *' }, runsOn: 'workers', run: async () => void at.push(Date.now()) });
    jobs.onApplicationBootstrap();
    await sleep(2100);
    await stop(jobs);
    expect(at.length).toBeGreaterThanOrEqual(1);
    expect(at.every((t) => t % 1000 < 500)).toBe(true); // on the second (give or take a busy machine)
  });
});

import type { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { DaySalt } from './day-salt.js';
import { VisitorIds } from './visitor-ids.service.js';
import type { VisitorSaltsRepository } from './visitor-salts.repository.js';

describe('VisitorIds', () => {
  const salts = new Map([
    ['2026-11-20', Buffer.alloc(32, 7)],
    ['2026-11-21', Buffer.alloc(32, 8)],
  ]);
  const make = () => {
    const read: string[] = [];
    const repository = {
      getOrCreate: async (day: string) => (read.push(day), salts.get(day)!),
      deleteBefore: async () => 0,
    } as unknown as VisitorSaltsRepository;
    return { ids: new VisitorIds(repository, { add() {} } as unknown as PeriodicJobs), read };
  };
  const at = (iso: string) => new Date(iso);

  it("answers with a promise until the day's salt is read, then from memory, under that day's salt", async () => {
    const { ids, read } = make();
    expect(ids.idNow('app_1', '203.0.113.7', 'UA', at('2026-11-20T10:00:00Z'))).toBeUndefined();
    const first = ids.limitKeyOf('app_1', '203.0.113.7', at('2026-11-20T10:00:05Z'));
    expect(first).toBeInstanceOf(Promise);
    const day = new DaySalt(salts.get('2026-11-20')!);
    expect(await first).toBe(day.limitKey('app_1', '203.0.113.7'));
    expect(ids.limitKeyOf('app_1', '203.0.113.7', at('2026-11-20T23:59:59Z'))).toBe(day.limitKey('app_1', '203.0.113.7'));
    expect(ids.idNow('app_1', '203.0.113.7', 'UA', at('2026-11-20T10:00:00Z'))).toBe(day.visitorId('app_1', '203.0.113.7', 'UA'));
    expect(read).toEqual(['2026-11-20']);

    // The next day: its own salt, read once.
    const next = new DaySalt(salts.get('2026-11-21')!);
    expect(await ids.idOf('app_1', '203.0.113.7', 'UA', at('2026-11-21T00:00:00Z'))).toBe(next.visitorId('app_1', '203.0.113.7', 'UA'));
    expect(ids.idNow('app_1', '203.0.113.7', 'UA', at('2026-11-21T00:00:01Z'))).toBe(next.visitorId('app_1', '203.0.113.7', 'UA'));
    expect(read).toEqual(['2026-11-20', '2026-11-21']);
  });
});

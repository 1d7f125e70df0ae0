import { hash } from 'node:crypto';
import type { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { VisitorIds } from './visitor-ids.service.js';
import type { VisitorSaltsRepository } from './visitor-salts.repository.js';

describe('VisitorIds.limitKeyOf', () => {
  const salt = Buffer.alloc(32, 7);
  const expected = (scope: string, network: string) => hash('sha256', `${salt.toString('latin1')}\u0000${scope}\u0000${network}`, 'base64url').slice(0, 12);
  const make = () => {
    const repository = { getOrCreate: async () => salt, deleteBefore: async () => 0 } as unknown as VisitorSaltsRepository;
    const ids = new VisitorIds(repository, { add() {} } as unknown as PeriodicJobs);
    const recent = (ids as unknown as { recentLimitKeys: Map<string, string> }).recentLimitKeys;
    return { ids, recent };
  };
  const at = (iso: string) => new Date(iso);

  it('is the salted SHA-256 of scope and network, from memory within the minute, and that memory is emptied as the minute ends', async () => {
    const { ids, recent } = make();
    const first = ids.limitKeyOf('app_1', '203.0.113.7', at('2026-11-20T10:00:05Z'));
    expect(first).toBeInstanceOf(Promise); // the day's salt is read first
    expect(await first).toBe(expected('app_1', '203.0.113.7'));
    expect(recent.size).toBe(0); // not remembered while the salt was being read

    expect(ids.limitKeyOf('app_1', '203.0.113.7', at('2026-11-20T10:00:06Z'))).toBe(expected('app_1', '203.0.113.7'));
    expect(ids.limitKeyOf('app_1', '203.0.113.7', at('2026-11-20T10:00:59Z'))).toBe(expected('app_1', '203.0.113.7'));
    expect(ids.limitKeyOf('app_2', '203.0.113.7', at('2026-11-20T10:00:59Z'))).toBe(expected('app_2', '203.0.113.7'));
    expect([...recent.keys()]).toEqual(['app_1\u0000203.0.113.7', 'app_2\u0000203.0.113.7']);

    // The next minute: nothing of the last one's addresses is kept.
    expect(ids.limitKeyOf('app_1', '198.51.100.1', at('2026-11-20T10:01:00Z'))).toBe(expected('app_1', '198.51.100.1'));
    expect([...recent.keys()]).toEqual(['app_1\u0000198.51.100.1']);
  });

  it('remembers at most 10 000 networks a minute; past that each is hashed again (the same key)', async () => {
    const { ids, recent } = make();
    await ids.limitKeyOf('app_1', '10.0.0.0', at('2026-11-20T10:00:00Z'));
    for (let i = 0; i < 10_050; i++) void ids.limitKeyOf('app_1', `10.0.${i >> 8}.${i & 255}`, at('2026-11-20T10:00:30Z'));
    expect(recent.size).toBe(10_000);
    expect(ids.limitKeyOf('app_1', '10.0.39.40', at('2026-11-20T10:00:31Z'))).toBe(expected('app_1', '10.0.39.40'));
  });
});

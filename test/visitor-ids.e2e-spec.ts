import { createHmac } from 'node:crypto';
import { VisitorIds } from '../src/analytics/visitor-ids.service.js';
import { VisitorSaltsRepository } from '../src/analytics/visitor-salts.repository.js';
import { PeriodicJobs } from '../src/common/periodic/periodic-jobs.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

describe(`cookieless visitor ids (${target})`, () => {
  let app: TestApp;
  let ids: VisitorIds;

  beforeAll(async () => {
    app = await startTestApp();
    ids = app.server.app.get(VisitorIds);
  });
  afterAll(() => app.close());

  const at = (iso: string) => new Date(iso);

  it('is a 64-bit HMAC of scope, IP and User-Agent under a random salt of the UTC day, stored once per day', async () => {
    const a = await ids.idOf('app_1', '203.0.113.7', 'Mozilla/5.0 A', at('2026-11-20T10:00:00Z'));
    // The first 64 bits of HMAC-SHA256 under the day's stored salt, signed, as analytics_events.visitor_id holds it.
    const [{ salt }] = await app.query<{ salt: Buffer }>(`SELECT salt FROM visitor_salts WHERE day = '2026-11-20'`);
    const hmac = createHmac('sha256', salt).update('app_1\u0000203.0.113.7\u0000Mozilla/5.0 A').digest();
    expect(a).toBe(hmac.readBigInt64BE(0).toString());
    expect(await ids.idOf('app_1', '203.0.113.7', 'Mozilla/5.0 A', at('2026-11-20T23:59:59Z'))).toBe(a);
    expect(await ids.idOf('app_2', '203.0.113.7', 'Mozilla/5.0 A', at('2026-11-20T10:00:00Z'))).not.toBe(a);
    expect(await ids.idOf('app_1', '203.0.113.8', 'Mozilla/5.0 A', at('2026-11-20T10:00:00Z'))).not.toBe(a);
    expect(await ids.idOf('app_1', '203.0.113.7', 'Mozilla/5.0 B', at('2026-11-20T10:00:00Z'))).not.toBe(a);
    // Another day, another salt: the same person cannot be linked across days.
    expect(await ids.idOf('app_1', '203.0.113.7', 'Mozilla/5.0 A', at('2026-11-21T00:00:00Z'))).not.toBe(a);
    const salts = await app.query<{ day: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM visitor_salts WHERE day IN ('2026-11-20', '2026-11-21') ORDER BY day`,
    );
    expect(salts.map((s) => s.day)).toEqual(['2026-11-20', '2026-11-21']);
    // Nothing of the visitor is stored: the salt table holds days and random bytes only.
    const dump = JSON.stringify(await app.query(`SELECT * FROM visitor_salts`));
    expect(dump).not.toContain('203.0.113.7');
    expect(dump).not.toContain('Mozilla');
  });

  it('hashes alike on every instance: the salt comes from the database, not from memory', async () => {
    const day = at('2026-11-20T12:00:00Z');
    const expected = await ids.idOf('app_1', '198.51.100.1', 'UA', day);
    // Another instance: its own (empty) cache, the same database.
    const another = new VisitorIds(app.server.app.get(VisitorSaltsRepository), app.server.app.get(PeriodicJobs));
    expect(await another.idOf('app_1', '198.51.100.1', 'UA', day)).toBe(expected);
  });

  it('deletes salts 48 h after their day began (at 00:00 UTC), so old ids cannot be recomputed', async () => {
    await ids.idOf('app_1', '192.0.2.1', 'UA', at('2026-11-18T08:00:00Z'));
    await ids.idOf('app_1', '192.0.2.1', 'UA', at('2026-11-19T08:00:00Z'));
    await ids.idOf('app_1', '192.0.2.1', 'UA', at('2026-11-20T08:00:00Z'));
    await ids.purge(at('2026-11-20T00:00:00Z'));
    const days = (await app.query<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM visitor_salts ORDER BY day`)).map((r) => r.day);
    expect(days).not.toContain('2026-11-18');
    expect(days).toEqual(expect.arrayContaining(['2026-11-19', '2026-11-20']));
  });
});

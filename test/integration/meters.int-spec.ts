import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { BillingError } from '../../src/billing/billing.errors.js';
import { BillingModule } from '../../src/billing/billing.module.js';
import { Meters } from '../../src/billing/meters.js';
import { UsageRepository } from '../../src/billing/usage.repository.js';
import { UsageRollup } from '../../src/billing/usage-rollup.js';
import { Transactions } from '../../src/database/transactions.js';
import { EventsModule } from '../../src/events/events.module.js';
import { target } from '../support/fresh-database.js';
import { startTestModule, TestModule } from '../support/test-module.js';

describe(`meters and the usage rollup, on the database (${target})`, () => {
  let t: TestModule;
  let meters: Meters;
  let rollup: UsageRollup;

  beforeAll(async () => {
    t = await startTestModule({ imports: [EventsModule, BillingModule] });
    meters = t.get(Meters);
    rollup = t.get(UsageRollup);
  });

  afterAll(() => t?.close());

  const newAccount = async () => (await t.get(AccountsService).create(`dev-${randomBytes(4).toString('hex')}@example.com`)).id;
  const today = () => new Date().toISOString().slice(0, 10);
  const month = () => `${today().slice(0, 8)}01`;
  const ledger = (accountId: string) =>
    t.query<{ meter: string; source_id: string; quantity: string }>(
      `SELECT meter, source_id, quantity::text FROM usage_records WHERE account_id = $1 ORDER BY meter, source_id`,
      [accountId],
    );
  const sums = async (table: 'usage_pending' | 'usage_daily', accountId: string) =>
    Object.fromEntries(
      (
        await t.query<{ meter: string; n: number }>(`SELECT meter, sum(quantity)::int AS n FROM ${table} WHERE account_id = $1 GROUP BY meter`, [accountId])
      ).map((r) => [r.meter, r.n]),
    );
  const events = (accountId: string) =>
    t.query<{ kind: string; data: { threshold: number; used: number; included: number } }>(
      `SELECT kind, data FROM events WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );

  it('records each thing once, with its pending rollup row, and nothing of a transaction that rolled back', async () => {
    const account = await newAccount();
    // api.requests has no included amount (nothing to announce: the rows are queued with the COMMIT); webhook.deliveries has.
    await meters.record(account, 'api.requests', 3, 'req-1');
    await meters.record(account, 'api.requests', 3, 'req-1');
    await meters.recordMany([
      { accountId: account, meter: 'api.requests', quantity: 2, sourceId: 'req-2' },
      { accountId: account, meter: 'webhook.deliveries', quantity: 1, sourceId: 'dlv-1' },
      { accountId: account, meter: 'webhook.deliveries', quantity: 0, sourceId: 'dlv-0' },
    ]);
    await meters.record(account, 'webhook.deliveries', 1, 'dlv-1');
    await expect(
      t.get(Transactions).run(async () => {
        await meters.record(account, 'api.requests', 5, 'req-rolled-back');
        await meters.record(account, 'webhook.deliveries', 1, 'dlv-rolled-back');
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');

    expect(await ledger(account)).toEqual([
      { meter: 'api.requests', source_id: 'req-1', quantity: '3' },
      { meter: 'api.requests', source_id: 'req-2', quantity: '2' },
      { meter: 'webhook.deliveries', source_id: 'dlv-1', quantity: '1' },
    ]);
    expect(await sums('usage_pending', account)).toEqual({ 'api.requests': 5, 'webhook.deliveries': 1 });
  });

  it('rolls pending usage into the daily totals once, and every reader counts the same before and after', async () => {
    const account = await newAccount();
    await Promise.all(['a', 'b', 'c', 'a'].map((thing) => meters.record(account, 'webhook.deliveries', 2, `dlv-${thing}`)));
    await meters.record(account, 'analytics.events', 7, 'batch-1');
    const usage = t.get(UsageRepository);
    const before = await usage.totals(account, month(), '9999-12-31');
    expect(Object.fromEntries(before)).toEqual({ 'webhook.deliveries': 6, 'analytics.events': 7 });

    await rollup.run();
    await rollup.run();

    expect(await sums('usage_pending', account)).toEqual({});
    expect(await sums('usage_daily', account)).toEqual({ 'webhook.deliveries': 6, 'analytics.events': 7 });
    const [{ days }] = await t.query<{ days: string[] }>(`SELECT array_agg(DISTINCT day::text) AS days FROM usage_daily WHERE account_id = $1`, [account]);
    expect(days).toEqual([today()]);
    expect(await usage.totals(account, month(), '9999-12-31')).toEqual(before);
    expect(await usage.daily(account, 'webhook.deliveries', today(), today())).toEqual(new Map([[today(), 6]]));
  });

  it('announces 80 % and 100 % of an included amount once each in the period', async () => {
    const account = await newAccount(); // the free plan includes 10,000 webhook deliveries
    await meters.record(account, 'webhook.deliveries', 7_999, 'bulk-1');
    expect(await events(account)).toEqual([]);
    await meters.record(account, 'webhook.deliveries', 1, 'bulk-2');
    await meters.record(account, 'webhook.deliveries', 1, 'bulk-3');
    await meters.record(account, 'webhook.deliveries', 2_500, 'bulk-4');
    await meters.record(account, 'webhook.deliveries', 10, 'bulk-5');

    expect(await events(account)).toEqual([
      { kind: 'billing.usage.threshold_reached', data: expect.objectContaining({ threshold: 80, used: 8_000, included: 10_000 }) },
      { kind: 'billing.usage.threshold_reached', data: expect.objectContaining({ threshold: 100, used: 10_501, included: 10_000 }) },
    ]);
    const marks = await t.query<{ threshold: number; period_start: string }>(
      `SELECT threshold, period_start::text FROM usage_thresholds WHERE account_id = $1 AND meter = 'webhook.deliveries' ORDER BY threshold`,
      [account],
    );
    expect(marks).toEqual([
      { threshold: 80, period_start: month() },
      { threshold: 100, period_start: month() },
    ]);
  });

  it('holds quota for work in flight, refuses what a hard quota has no room for (402), and gives it back', async () => {
    const account = await newAccount(); // the free plan: 100,000 AI tokens, hard
    const reservations = () => t.query<{ quantity: number }>(`SELECT quantity::int AS quantity FROM quota_reservations WHERE account_id = $1`, [account]);
    await meters.record(account, 'ai.tokens', 90_000, 'gen-1');
    const held = await meters.reserve(account, 'ai.tokens', 8_000, 60_000);
    expect(held).toEqual(expect.objectContaining({ accountId: account, meter: 'ai.tokens', quantity: 8_000 }));
    expect(await reservations()).toEqual([{ quantity: 8_000 }]);

    const refused = await meters.reserve(account, 'ai.tokens', 2_001, 60_000).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(BillingError);
    expect([(refused as BillingError).status, (refused as BillingError).reason]).toEqual([402, 'quota_exceeded']);
    expect(await reservations()).toEqual([{ quantity: 8_000 }]);

    // The generation settles: what it used is recorded and its hold goes, in one transaction.
    await t.get(Transactions).run(async () => {
      await meters.record(account, 'ai.tokens', 5_000, 'gen-2');
      await meters.release(held);
    });
    expect(await reservations()).toEqual([]);
    await expect(meters.assertRoom(account, 'ai.tokens', 5_000)).resolves.toBeUndefined();
    await expect(meters.assertRoom(account, 'ai.tokens', 5_001)).rejects.toBeInstanceOf(BillingError);
  });
});

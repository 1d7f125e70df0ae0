import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AccountsService } from '../../src/accounts/accounts.service.js';
import { BillingModule } from '../../src/billing/billing.module.js';
import { Meters } from '../../src/billing/meters.js';
import { Transactions } from '../../src/database/transactions.js';
import type { DomainEvent } from '../../src/events/domain-events.js';
import { DomainEvents } from '../../src/events/domain-events.service.js';
import { EventDispatcher } from '../../src/events/event-dispatcher.js';
import { EventsModule } from '../../src/events/events.module.js';
import { OnDomainEvent } from '../../src/events/on-domain-event.decorator.js';
import { OutboxRelay } from '../../src/events/outbox-relay.service.js';
import { target } from '../support/fresh-database.js';
import { startTestModule, TestModule } from '../support/test-module.js';

/** A listener that writes (a usage row per sign-up) in the dispatch transaction, and fails for the users it is told to. */
@Injectable()
class SignupCounter {
  readonly failFor = new Set<string>();
  readonly seen: string[] = [];

  constructor(private readonly meters: Meters) {}

  @OnDomainEvent('user.created')
  async onUserCreated(event: DomainEvent<'user.created'>): Promise<void> {
    this.seen.push(event.data.id);
    await this.meters.record(event.accountId, 'api.requests', 1, `signup:${event.data.id}`);
    if (this.failFor.has(event.data.id)) throw new Error(`the listener fails for ${event.data.id}`);
  }
}

describe(`the event dispatcher, on the database (${target})`, () => {
  let t: TestModule;
  let counter: SignupCounter;

  beforeAll(async () => {
    t = await startTestModule({ imports: [EventsModule, BillingModule], providers: [SignupCounter] });
    counter = t.get(SignupCounter);
  });

  afterAll(() => t?.close());

  const newAccount = async () => (await t.get(AccountsService).create(`dev-${randomBytes(4).toString('hex')}@example.com`)).id;
  const signUp = (accountId: string, ...userIds: string[]) =>
    t.get(Transactions).run(async () => {
      for (const id of userIds) await t.get(DomainEvents).raise('user.created', accountId, { id, email: `${id}@example.com`, appId: 'app_1', source: 'api' });
    });
  const rows = (accountId: string) =>
    t.query<{ user_id: string; kind: string; dispatched: boolean; at_creation: boolean; dispatch_failures: number }>(
      `SELECT data->>'id' AS user_id, kind, dispatched_at IS NOT NULL AS dispatched, dispatched_at = created_at AS at_creation, dispatch_failures
         FROM events WHERE account_id = $1 ORDER BY data->>'id'`,
      [accountId],
    );
  const counted = async (accountId: string) =>
    (await t.query<{ source_id: string }>(`SELECT source_id FROM usage_records WHERE account_id = $1 ORDER BY source_id`, [accountId])).map((r) => r.source_id);

  it('dispatches committed events after their commit and marks them dispatched, together with what the listener wrote', async () => {
    const account = await newAccount();
    await signUp(account, 'usr_a1', 'usr_a2', 'usr_a3');
    await t.get(EventDispatcher).idle();

    expect(await rows(account)).toEqual(
      ['usr_a1', 'usr_a2', 'usr_a3'].map((user_id) => ({ user_id, kind: 'user.created', dispatched: true, at_creation: false, dispatch_failures: 0 })),
    );
    expect(counter.seen).toEqual(expect.arrayContaining(['usr_a1', 'usr_a2', 'usr_a3']));
    expect(await counted(account)).toEqual(['signup:usr_a1', 'signup:usr_a2', 'signup:usr_a3']);
  });

  it('keeps nothing of a change that rolled back: no event row, no listener call', async () => {
    const account = await newAccount();
    await expect(
      t.get(Transactions).run(async () => {
        await t.get(DomainEvents).raise('user.created', account, { id: 'usr_gone', email: 'gone@example.com', appId: 'app_1', source: 'api' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.get(EventDispatcher).idle();
    expect(await rows(account)).toEqual([]);
    expect(counter.seen).not.toContain('usr_gone');
  });

  it('writes an event no listener wants as dispatched already', async () => {
    const account = await newAccount();
    await t.get(Transactions).run(() => t.get(DomainEvents).raise('user.deleted', account, { id: 'usr_x', appId: 'app_1' }));
    expect(await rows(account)).toEqual([{ user_id: 'usr_x', kind: 'user.deleted', dispatched: true, at_creation: true, dispatch_failures: 0 }]);
  });

  it('leaves an event whose listener failed to the relay, its writes rolled back, and dispatches the rest of its batch', async () => {
    const account = await newAccount();
    counter.failFor.add('usr_b2');
    await signUp(account, 'usr_b1', 'usr_b2', 'usr_b3');
    await t.get(EventDispatcher).idle();

    expect((await rows(account)).map((r) => [r.user_id, r.dispatched, r.dispatch_failures])).toEqual([
      ['usr_b1', true, 0],
      ['usr_b2', false, 1],
      ['usr_b3', true, 0],
    ]);
    expect(await counted(account)).toEqual(['signup:usr_b1', 'signup:usr_b3']);

    // The listener works again: the relay's next pass dispatches the event, once.
    counter.failFor.delete('usr_b2');
    expect(await t.get(OutboxRelay).relay(0)).toBe(1);
    expect(await t.get(OutboxRelay).relay(0)).toBe(0);
    expect((await rows(account)).map((r) => [r.user_id, r.dispatched])).toEqual([
      ['usr_b1', true],
      ['usr_b2', true],
      ['usr_b3', true],
    ]);
    expect(await counted(account)).toEqual(['signup:usr_b1', 'signup:usr_b2', 'signup:usr_b3']);
  });
});

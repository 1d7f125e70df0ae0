import { Injectable, Module } from '@nestjs/common';
import request from 'supertest';
import { Transactions } from '../../src/database/transactions.js';
import type { AnyDomainEvent, DomainEvent, DomainEventMap, DomainEventName } from '../../src/events/domain-events.js';
import { DomainEvents } from '../../src/events/domain-events.service.js';
import { EventDispatcher } from '../../src/events/event-dispatcher.js';
import { OnDomainEvent } from '../../src/events/on-domain-event.decorator.js';
import { createAccount, TestApp } from './test-app.js';

/** Enough requests for the bulk tests: the rate limit has its own suite. */
export const NO_RATE_LIMIT = { RATE_LIMIT_MAX: '1000000', RATE_LIMIT_AI_MAX: '1000000', RATE_LIMIT_SIGN_IN_MAX: '1000000', RATE_LIMIT_UPLOADS_MAX: '1000000' };

export interface ApiClient {
  accountId: string;
  apiKey: string;
  get(path: string): request.Test;
  post(path: string, body?: object, headers?: Record<string, string>): request.Test;
  patch(path: string, body?: object): request.Test;
  put(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

/** Requests as one credential: `Authorization: Bearer <apiKey>` on each. */
export function clientFor(app: TestApp, accountId: string, apiKey: string): ApiClient {
  const auth = (test: request.Test) => test.set('authorization', `Bearer ${apiKey}`);
  return {
    accountId,
    apiKey,
    get: (path) => auth(app.http().get(path)),
    post: (path, body, headers = {}) => auth(app.http().post(path)).set(headers).send(body),
    patch: (path, body) => auth(app.http().patch(path)).send(body),
    put: (path, body) => auth(app.http().put(path)).send(body),
    delete: (path) => auth(app.http().delete(path)),
  };
}

/** A fresh account and a client with its first key (every scope). */
export async function newAccountClient(app: TestApp): Promise<ApiClient> {
  const account = await createAccount(app);
  return clientFor(app, account.accountId, account.apiKey);
}

/** A client of the same account whose key holds only these scopes. */
export async function scopedClient(app: TestApp, owner: ApiClient, scopes: string[]): Promise<ApiClient> {
  const res = await owner.post('/v1/api-keys', { name: `only ${scopes.join(' ')}`, scopes }).expect(201);
  const key = (res.body.apiKey ?? res.body.key) as string;
  return clientFor(app, owner.accountId, key);
}

/** A listener of every domain event (mount with startTestApp({ modules: [EventRecorderModule] })): what listeners receive. */
@Injectable()
export class EventRecorder {
  readonly events: AnyDomainEvent[] = [];

  constructor(private readonly dispatcher: EventDispatcher) {}

  @OnDomainEvent('*')
  record(event: AnyDomainEvent): void {
    this.events.push(event);
  }

  /** The events of this kind dispatched so far, once the dispatcher has handled everything raised before the call. */
  async of<K extends DomainEventName>(name: K, accountId?: string): Promise<Array<DomainEvent<K>>> {
    await this.dispatcher.idle();
    return this.events.filter((e): e is AnyDomainEvent & DomainEvent<K> => e.name === name && (accountId === undefined || e.accountId === accountId));
  }
}

/** Raises a domain event as a service would (in a transaction of its own), e.g. to drive the webhook fan-out. */
export function raiseEvent<K extends DomainEventName>(app: TestApp, name: K, accountId: string, data: DomainEventMap[K]): Promise<DomainEvent<K>> {
  return app.server.app.get(Transactions).run(() => app.server.app.get(DomainEvents).raise(name, accountId, data));
}

@Module({ providers: [EventRecorder] })
export class EventRecorderModule {}

export const expectErrorBody = (body: Record<string, unknown>, code: number, mentions?: string | RegExp) => {
  expect(body).toMatchObject({ error: true, code });
  expect(typeof body.message).toBe('string');
  if (typeof mentions === 'string') expect(body.message).toContain(mentions);
  else if (mentions) expect(body.message).toMatch(mentions);
};

/** The exact error envelope of an answer: its status, reason and message, and the answer's own x-request-id. */
export const errorEnvelope = (answer: { headers: Record<string, string> }, code: number, reason: string, message: string) => ({
  error: true,
  code,
  message,
  reason,
  requestId: answer.headers['x-request-id'],
});

/** Runs `fn` over `items`, `width` at a time. */
export async function inBatches<T, R>(items: T[], width: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) {
    out.push(...(await Promise.all(items.slice(i, i + width).map((item, j) => fn(item, i + j)))));
  }
  return out;
}

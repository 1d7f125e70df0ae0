import type { AnyDomainEvent, DomainEvent, DomainEventName } from './domain-events.js';

export const DOMAIN_EVENT_LISTENER = Symbol('domainEventListener');

/** What a listener of these names receives: `DomainEvent<'user.created'>`, a union for several, any event for `*`. */
export type ListenedEvent<N extends DomainEventName | '*'> = N extends '*' ? AnyDomainEvent : N extends DomainEventName ? DomainEvent<N> : never;

/**
 * Marks a provider method as a listener of domain events, typed by the event map:
 *
 *     @OnDomainEvent('user.created')
 *     async onUserCreated(event: DomainEvent<'user.created'>) { … }
 *
 * Listeners run after the change has committed, one after another, inside the dispatcher's
 * transaction: what they write through repositories commits together with the event being marked
 * dispatched. A listener that throws rolls that back and the event is dispatched again later, so
 * work outside the database belongs in `Transactions.afterCommit`.
 */
export function OnDomainEvent<N extends DomainEventName | '*'>(...names: N[]) {
  // The method must take what these names carry: a listener of 'user.created' typed for 'user.deleted' does not compile.
  return <H extends (event: ListenedEvent<N>) => unknown>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    Reflect.defineMetadata(DOMAIN_EVENT_LISTENER, names, descriptor.value!);
  };
}

export const DOMAIN_EVENT_BATCH_LISTENER = Symbol('domainEventBatchListener');

/**
 * Like @OnDomainEvent, for a listener that does the same work for many events and does it better
 * in bulk (the webhook fan-out: one query for the endpoints, one insert for the deliveries). It is
 * called once per dispatched batch with the matching events, oldest first, in the dispatcher's
 * transaction; never with an empty list.
 */
export function OnDomainEventBatch<N extends DomainEventName | '*'>(...names: N[]) {
  return <H extends (events: Array<ListenedEvent<N>>) => unknown>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    Reflect.defineMetadata(DOMAIN_EVENT_BATCH_LISTENER, names, descriptor.value!);
  };
}

export const DOMAIN_EVENT_INTEREST = Symbol('domainEventInterest');

/**
 * Beside @OnDomainEvent or @OnDomainEventBatch: when the listener can have work for an event, as a
 * SQL condition on the event row `e` (its `account_id` and `kind`), checked as the event is written.
 * An event that no listener can have work for is written as dispatched, so dispatching it costs
 * nothing (no lock, no update): the webhook fan-out for an account without endpoints, say. The
 * condition must hold whenever the listener would act — an event it misses never reaches the
 * listener — and may hold when it would not.
 */
export function ListensOnlyWhen(sql: string) {
  return (_target: object, _key: string | symbol, descriptor: PropertyDescriptor): void => {
    Reflect.defineMetadata(DOMAIN_EVENT_INTEREST, sql, descriptor.value as object);
  };
}

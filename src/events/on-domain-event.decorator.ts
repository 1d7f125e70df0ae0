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

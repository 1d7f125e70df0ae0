/**
 * Every domain event and its payload. Emit through EventBus, listen with @OnDomainEvent.
 * New domains (billing, publishing, ...) add their kinds here; the webhook fan-out picks
 * them up without further wiring.
 */
export interface DomainEventMap {
  'account.created': { accountId: string; email: string };
}

export type DomainEventName = keyof DomainEventMap;

/** What travels on the bus: the kind, the owning account and the public payload. */
export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  name: K;
  accountId: string;
  data: DomainEventMap[K];
  occurredAt: Date;
}

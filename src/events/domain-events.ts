/**
 * Every domain event and its payload. Emit through EventBus, listen with @OnDomainEvent.
 * New domains (billing, publishing, ...) add their kinds here; the webhook fan-out picks
 * them up without further wiring.
 */
export interface DomainEventMap {
  'account.created': { accountId: string; email: string };
  'app.created': AppEventData;
  /** `previousAttributes`: the changed fields' values before the update (as Stripe's `previous_attributes`). */
  'app.updated': AppEventData & { previousAttributes: Partial<Pick<AppEventData, 'name' | 'description'>> };
  'app.deleted': { appId: string };
  'deployment.succeeded': { deploymentId: string; appId: string; env: string; url: string; createdAt: string };
  'user.created': { id: string; email: string; appId: string };
  /** No e-mail: the user is erased. */
  'user.deleted': { id: string; appId: string };
}

/** An app as the API shows it (the payload of the app.* events). Dates are ISO 8601 strings: payloads are JSON. */
export interface AppEventData {
  appId: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DomainEventName = keyof DomainEventMap;

/** What travels on the bus: the kind, the owning account and the public payload. */
export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  name: K;
  accountId: string;
  data: DomainEventMap[K];
  occurredAt: Date;
}

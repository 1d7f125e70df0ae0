import type { DomainEventName } from '../events/domain-events.js';

/** `webhook.test`: sent by POST /v1/webhook-endpoints/:id/test to one endpoint only. */
export const TEST_EVENT = 'webhook.test';

/**
 * Every domain event kind, and whether it is public (recorded in the event log and deliverable to
 * webhooks). Typed against the event map, so a kind added there fails the build until it is
 * classified here. Internal kinds (account.created) stay off the log.
 */
const KINDS: Record<DomainEventName, boolean> = {
  'account.created': false,
  'app.created': true,
  'app.updated': true,
  'app.deleted': true,
  'deployment.succeeded': true,
  'user.created': true,
  'user.deleted': true,
};

/** Public event kinds, `webhook.test` included. */
export const WEBHOOK_EVENT_KINDS: readonly string[] = [
  ...Object.entries(KINDS).filter(([, pub]) => pub).map(([kind]) => kind),
  TEST_EVENT,
];

export function isPublicKind(kind: string): boolean {
  return (KINDS as Record<string, boolean>)[kind] === true;
}

/** What an endpoint may subscribe to: `*`, a whole domain (`user.*`) or an exact kind. */
export const EVENT_FILTERS: readonly string[] = [
  '*',
  ...[...new Set(WEBHOOK_EVENT_KINDS.map((k) => k.split('.')[0]))].map((domain) => `${domain}.*`),
  ...WEBHOOK_EVENT_KINDS,
];

/** Whether an endpoint with these filters gets this kind. `webhook.test` goes only where sent explicitly. */
export function matchesFilters(filters: string[], kind: string): boolean {
  if (kind === TEST_EVENT) return false;
  const domain = kind.split('.')[0];
  return filters.some((f) => f === '*' || f === kind || f === `${domain}.*`);
}

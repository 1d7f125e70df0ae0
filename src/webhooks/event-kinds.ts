import { LOGGED_EVENT_KINDS, TEST_EVENT_KIND } from '../events/domain-events.js';

/** What an endpoint may subscribe to: `*`, a whole domain (`user.*`) or an exact kind. */
export const EVENT_FILTERS: readonly string[] = [
  '*',
  ...[...new Set(LOGGED_EVENT_KINDS.map((k) => k.split('.')[0]))].map((domain) => `${domain}.*`),
  ...LOGGED_EVENT_KINDS,
];

/** Whether an endpoint with these filters gets this kind. `webhook.test` goes only where it is sent explicitly. */
export function matchesFilters(filters: string[], kind: string): boolean {
  if (kind === TEST_EVENT_KIND) return false;
  const domain = kind.split('.')[0];
  return filters.some((f) => f === '*' || f === kind || f === `${domain}.*`);
}

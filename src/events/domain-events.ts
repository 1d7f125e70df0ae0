import type { SiteConfig } from '../deployments/site-config.js';

/**
 * Every domain event and its payload: the one list of what the platform tells the world. A
 * service raises them with `DomainEvents.raise` inside its transaction (the outbox); after commit
 * the dispatcher hands them to the listeners (`@OnDomainEvent`) — the webhook fan-out among them,
 * which sends every kind to the endpoints that subscribe to it. A new domain adds its kinds here.
 */
export interface DomainEventMap {
  'app.created': AppEventData;
  /**
   * `changed`: what changed (`landingPage` for a new landing page); `previousAttributes`: the changed
   * fields' values before the update (as Stripe's `previous_attributes`).
   */
  'app.updated': AppEventData & { changed: AppChange[]; previousAttributes: Partial<Pick<AppEventData, 'name' | 'description' | 'slug' | 'visibility'>> };
  'app.deleted': { appId: string };
  /** The public address serves `deploymentId` now; `previousDeploymentId`: the one it served before (a rollback publishes an older one), null if none. */
  'app.published': { appId: string; deploymentId: string; previousDeploymentId: string | null; publicUrl: string };
  /** The public address answers 410 now. */
  'app.unpublished': { appId: string };
  /** `files` and `config`: deployed with files only. */
  'deployment.succeeded': {
    deploymentId: string;
    appId: string;
    env: string;
    url: string;
    createdAt: string;
    files?: { count: number; bytes: number };
    config?: SiteConfig | null;
  };
  /** `source`: how the person signed up; `deploymentId`: the landing page they used (source `landing-page`). */
  'user.created': { id: string; email: string; appId: string; source: SignupSource; deploymentId?: string };
  /** No e-mail: the user is erased. */
  'user.deleted': { id: string; appId: string };
  'billing.usage.threshold_reached': { meter: string; threshold: number; used: number; included: number; periodStart: string };
  'billing.statement.closed': { statementId: string; period: { start: string; end: string }; totalCents: number };
  'billing.plan.changed': { from: string; to: string };
  /** The service disabled an endpoint (a 410 answer, or deliveries failing for WEBHOOK_DISABLE_AFTER); sent to the account's other Active endpoints. */
  'webhook_endpoint.disabled': { endpointId: string; url: string; reason: string };
  /** The TXT record was found: the name serves the app from now on. */
  'domain.verified': DomainEventData;
  /** 7 days pending without the TXT record: no more scheduled checks. */
  'domain.failed': DomainEventData;
  /** Deleted (alone or with its app): the name stops serving. */
  'domain.deleted': DomainEventData;
  /** A verified domain's TXT record stayed gone for the grace period: the name stops serving; whoever verifies it next owns it. */
  'domain.lapsed': DomainEventData;
  /** A split test began: the published address serves each visitor one of `variants` (by weight, from their visitor id). */
  'split.started': { appId: string; splitId: string; variants: SplitVariantData[] };
  /**
   * A split test ended — `endedBy`: `deleted` (DELETE …/split), `published` or `unpublished` (the app), `replaced` (a new
   * test) — with each variant's results since it began.
   */
  'split.ended': { appId: string; splitId: string; endedBy: 'deleted' | 'published' | 'unpublished' | 'replaced'; variants: SplitVariantResultsData[] };
}

/** A variant of a split test: a production deployment and its share of visitors (percent). */
export interface SplitVariantData {
  deploymentId: string;
  weight: number;
}

/** A variant's results: `conversionRate` in percent; `chanceToBeatFirst` 0–1, null for the first variant. */
export interface SplitVariantResultsData extends SplitVariantData {
  visitors: number;
  signups: number;
  conversionRate: number;
  chanceToBeatFirst: number | null;
}

/** A custom domain, in the domain.* events. */
export interface DomainEventData {
  domainId: string;
  appId: string;
  hostname: string;
}

export type SignupSource = 'api' | 'landing-page';

export type AppChange = 'name' | 'description' | 'slug' | 'visibility' | 'landingPage';

/** An app as the API shows it (the payload of the app.* events). Dates are ISO 8601 strings: payloads are JSON. */
export interface AppEventData {
  appId: string;
  name: string;
  description: string | null;
  slug: string;
  visibility: 'public' | 'unlisted';
  publishState: 'draft' | 'published' | 'unpublished';
  publishedDeploymentId: string | null;
  publishedAt: string | null;
  publicUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export type DomainEventName = keyof DomainEventMap;

/** The event map's names at run time; `satisfies` fails the build until a new kind is listed here too. */
export const DOMAIN_EVENT_NAMES = Object.keys({
  'app.created': true,
  'app.updated': true,
  'app.deleted': true,
  'app.published': true,
  'app.unpublished': true,
  'deployment.succeeded': true,
  'user.created': true,
  'user.deleted': true,
  'billing.usage.threshold_reached': true,
  'billing.statement.closed': true,
  'billing.plan.changed': true,
  'webhook_endpoint.disabled': true,
  'domain.verified': true,
  'domain.failed': true,
  'domain.deleted': true,
  'domain.lapsed': true,
  'split.started': true,
  'split.ended': true,
} satisfies Record<DomainEventName, true>) as DomainEventName[];

/** A raised event, as listeners receive it. */
export interface DomainEvent<K extends DomainEventName = DomainEventName> {
  /** `evt_…`: its row in the event log, and the `x-service-event-id` of its webhooks. */
  id: string;
  name: K;
  accountId: string;
  data: DomainEventMap[K];
  occurredAt: Date;
}

/** Any event, as a union discriminated by `name`: narrow with `if (event.name === 'user.created')`. */
export type AnyDomainEvent = { [K in DomainEventName]: DomainEvent<K> }[DomainEventName];

/** Not a domain event: `POST /v1/webhook-endpoints/:id/test` sends it to one endpoint. Logged like the others. */
export const TEST_EVENT_KIND = 'webhook.test';

/** What the event log (`GET /v1/events`) can hold. */
export const LOGGED_EVENT_KINDS: readonly string[] = [...DOMAIN_EVENT_NAMES, TEST_EVENT_KIND];

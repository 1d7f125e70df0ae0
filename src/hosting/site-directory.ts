import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { AppAddresses } from '../apps/app-addresses.js';
import type { App } from '../apps/app.entity.js';
import { AppsService } from '../apps/apps.service.js';
import type { Deployment } from '../deployments/deployment.entity.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { RedisConnection } from '../redis/redis.module.js';
import { ServedSplit, servedSplit, SplitAssignment } from '../publishing/split-assignment.js';
import type { SiteAddress } from '../sites/sites.service.js';
import { ServedSite, servedSiteOf } from './served-site.js';
import { environmentReadings } from './site-hosts.js';

/** What a site label names. */
export type SiteLookup =
  | { kind: 'site'; site: ServedSite; address: SiteAddress; split?: ServedSplit<ServedSite> }
  /** A published app taken down: 410. */
  | { kind: 'gone' }
  /** A slug the app gave up in the last 30 days: 301 to this label (`<slug>` or `<env>--<slug>`). */
  | { kind: 'moved'; label: string }
  | { kind: 'none' };

interface Entry {
  lookup: SiteLookup;
  /** The app it depends on (its changes evict it); none for a label that named nothing. */
  appId: string | null;
  until: number;
}

/** A safety net: every change that moves a label evicts it at once (here, and on other instances through Redis). */
const FOUND_TTL_MS = 30_000;
/** Labels that name nothing are remembered briefly, so a flood of made-up hosts costs few queries. */
const NOT_FOUND_TTL_MS = 5_000;
const MAX_LABELS = 10_000;
/** Deployments kept, by the files their manifests hold together (a manifest has at most 20,000). */
const MAX_MANIFEST_ENTRIES = 500_000;

/** Events after which a label of the app may name something else (a deploy moves `<env>--<slug>`, publishing moves `<slug>`…). */
const MOVING_EVENTS = new Set([
  'app.created',
  'app.updated',
  'app.deleted',
  'app.published',
  'app.unpublished',
  'deployment.succeeded',
  'split.started',
  'split.ended',
]);

/**
 * Host → deployment, in memory: a site's label (`dep-…`, `<env>--<slug>`, `<slug>`) resolved once
 * and kept 30 s, its deployment (manifest and config) kept beside it. An app's change evicts its labels
 * as soon as it commits — in this process through `DomainEvents.observeCommitted`, on the others
 * through Redis pub/sub (one message per event-loop turn for all the apps changed in it) — together
 * with every label that named nothing (a new slug may name something now). A lookup is not kept if its
 * app was evicted while it read (it may have read the old rows); a subscriber that reconnects empties
 * the cache (evictions may have been missed). Evicting costs the app's own labels, not a scan.
 */
@Injectable()
export class SiteDirectory implements OnModuleInit {
  private readonly logger = new Logger('Sites');
  private readonly labels = new Map<string, Entry>();
  /** The labels kept for each app, and those that named nothing. */
  private readonly labelsOfApp = new Map<string, Set<string>>();
  private readonly nameless = new Set<string>();
  private readonly sites = new Map<string, ServedSite>();
  private readonly loading = new Map<string, Promise<SiteLookup>>();
  private manifestEntries = 0;
  /** Evictions so far; when each app was last evicted, when nameless labels and everything were last dropped. */
  private sequence = 0;
  private readonly evictedAt = new Map<string, number>();
  private namelessDroppedAt = 0;
  private everythingDroppedAt = 0;
  /** Apps changed in this turn of the event loop, told to the other instances together. */
  private toBroadcast = new Set<string>();

  constructor(
    private readonly deployments: DeploymentsService,
    private readonly apps: AppsService,
    private readonly addresses: AppAddresses,
    private readonly redis: RedisConnection,
    events: DomainEvents,
    private readonly splits: SplitAssignment,
  ) {
    events.observeCommitted((event) => {
      if (MOVING_EVENTS.has(event.name)) this.evict((event.data as { appId: string }).appId);
    });
  }

  onModuleInit(): void {
    this.redis.subscribe(this.channel, {
      topic: 'site changes',
      onMessage: (appIds) => {
        for (const appId of appIds.split(',')) this.forget(appId);
      },
      onGap: () => this.forgetEverything(),
    });
  }

  /** What the label names when it is in memory (no promise: the hot path), else undefined. */
  peek(label: string): SiteLookup | undefined {
    const entry = this.labels.get(label);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.lookup;
    this.drop(label, entry);
    return undefined;
  }

  /** What the label names; concurrent misses of one label share one lookup. */
  lookup(label: string): Promise<SiteLookup> {
    const cached = this.peek(label);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(label);
    if (!pending) {
      const since = this.sequence;
      pending = this.resolve(label)
        .then(({ lookup, appId }) => {
          if (this.unchangedSince(appId, since)) this.remember(label, lookup, appId);
          return lookup;
        })
        .finally(() => this.loading.delete(label));
      this.loading.set(label, pending);
    }
    return pending;
  }

  /** Forgets the app's labels here at once, and on every instance by the end of this turn of the event loop. */
  evict(appId: string): void {
    this.forget(appId);
    if (!this.redis.client) return;
    if (this.toBroadcast.size === 0) setImmediate(() => void this.broadcast());
    this.toBroadcast.add(appId);
  }

  private async broadcast(): Promise<void> {
    const appIds = [...this.toBroadcast];
    this.toBroadcast = new Set();
    try {
      await this.redis.client!.publish(this.channel, appIds.join(','));
    } catch (err) {
      this.logger.warn(
        { err: { message: (err as Error).message } },
        `Could not broadcast a change of ${appIds.length} app(s); other instances see it within ${FOUND_TTL_MS / 1000} s`,
      );
    }
  }

  private async resolve(label: string): Promise<{ lookup: SiteLookup; appId: string | null }> {
    // A verified custom domain (customDomainLabel): its app's published deployment.
    if (label.startsWith('app:')) {
      const app = await this.apps.byId(label.slice(4));
      return app ? this.published(app) : { lookup: { kind: 'none' }, appId: null };
    }
    const deploymentId = this.addresses.deploymentIdOfLabel(label);
    if (deploymentId) {
      const deployment = await this.deployments.findServable(deploymentId);
      if (deployment) return this.found(deployment, 'deployment');
    }
    for (const { env, slug } of environmentReadings(label)) {
      const named = await this.apps.resolveSlug(slug);
      if (!named) continue;
      if ('movedTo' in named) return { lookup: { kind: 'moved', label: `${env}--${named.movedTo}` }, appId: null };
      const deployment = await this.deployments.findNewestServable(named.app.id, env);
      if (deployment) return this.found(deployment, 'alias');
    }
    const named = await this.apps.resolveSlug(label);
    if (!named) return { lookup: { kind: 'none' }, appId: null };
    if ('movedTo' in named) return { lookup: { kind: 'moved', label: named.movedTo }, appId: null };
    return this.published(named.app);
  }

  /** What an app's public address serves: its published deployment, 410 once unpublished, nothing while a draft. */
  private async published(app: App): Promise<{ lookup: SiteLookup; appId: string | null }> {
    if (app.publishState === 'unpublished') return { lookup: { kind: 'gone' }, appId: app.id };
    if (app.publishState !== 'published' || !app.publishedDeploymentId) return { lookup: { kind: 'none' }, appId: app.id };
    const deployment = await this.deployments.findServable(app.publishedDeploymentId);
    if (!deployment) return { lookup: { kind: 'none' }, appId: app.id };
    const found = this.found(deployment, 'public');
    // Under a split test each visitor is served one of its variants (SiteServer picks it from their visitor id).
    const split = await this.splits.running(app.id);
    if (split && found.lookup.kind === 'site') {
      const sites: ServedSite[] = [];
      for (const variant of split.variants) {
        const served = await this.deployments.findServable(variant.deploymentId);
        const variantFound = served && this.found(served, 'public').lookup;
        if (variantFound?.kind !== 'site') return found; // a variant gone (its app's deletion is under way): the published one
        sites.push(variantFound.site);
      }
      found.lookup.split = servedSplit(split.splitId, split.variants, sites);
    }
    return found;
  }

  private found(deployment: Deployment, address: SiteAddress): { lookup: SiteLookup; appId: string } {
    let site = this.sites.get(deployment.id);
    if (!site) {
      site = servedSiteOf(deployment);
      this.sites.set(deployment.id, site);
      this.manifestEntries += site.files?.size ?? 0;
      for (const [id, old] of this.sites) {
        if (this.manifestEntries <= MAX_MANIFEST_ENTRIES && this.sites.size <= MAX_LABELS) break;
        this.sites.delete(id);
        this.manifestEntries -= old.files?.size ?? 0;
      }
    }
    return { lookup: { kind: 'site', site, address }, appId: deployment.appId };
  }

  private remember(label: string, lookup: SiteLookup, appId: string | null): void {
    const ttl = lookup.kind === 'site' || lookup.kind === 'gone' ? FOUND_TTL_MS : NOT_FOUND_TTL_MS;
    const old = this.labels.get(label);
    if (old) this.drop(label, old);
    this.labels.set(label, { lookup, appId, until: Date.now() + ttl });
    if (appId === null) this.nameless.add(label);
    else {
      let kept = this.labelsOfApp.get(appId);
      if (!kept) this.labelsOfApp.set(appId, (kept = new Set()));
      kept.add(label);
    }
    if (this.labels.size > MAX_LABELS) {
      const [oldest, entry] = this.labels.entries().next().value!;
      this.drop(oldest, entry);
    }
  }

  private drop(label: string, entry: Entry): void {
    this.labels.delete(label);
    if (entry.appId === null) this.nameless.delete(label);
    else {
      const kept = this.labelsOfApp.get(entry.appId);
      kept?.delete(label);
      if (kept?.size === 0) this.labelsOfApp.delete(entry.appId);
    }
  }

  /** Whether nothing that concerns the lookup of `appId`'s label (null: a label that named nothing) was evicted since `since`. */
  private unchangedSince(appId: string | null, since: number): boolean {
    if (this.everythingDroppedAt > since) return false;
    return appId === null ? this.namelessDroppedAt <= since : (this.evictedAt.get(appId) ?? 0) <= since;
  }

  /** Drops the app's labels, and every label that named nothing. */
  private forget(appId: string): void {
    const at = ++this.sequence;
    this.evictedAt.delete(appId);
    this.evictedAt.set(appId, at);
    // Bounded: past the limit the oldest marks go, and everything counts as changed at that point.
    if (this.evictedAt.size > MAX_LABELS) {
      this.evictedAt.clear();
      this.everythingDroppedAt = at;
    }
    this.namelessDroppedAt = at;
    for (const label of this.labelsOfApp.get(appId) ?? []) this.labels.delete(label);
    this.labelsOfApp.delete(appId);
    for (const label of this.nameless) this.labels.delete(label);
    this.nameless.clear();
    // Deployments never change: a kept one is used only for a deployment just read from the database.
  }

  private forgetEverything(): void {
    this.everythingDroppedAt = ++this.sequence;
    this.evictedAt.clear();
    this.labels.clear();
    this.labelsOfApp.clear();
    this.nameless.clear();
    this.sites.clear();
    this.manifestEntries = 0;
  }

  private get channel(): string {
    return this.redis.key('sites', 'changed');
  }
}

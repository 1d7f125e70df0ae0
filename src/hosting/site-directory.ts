import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { AppAddresses } from '../apps/app-addresses.js';
import { AppsService } from '../apps/apps.service.js';
import type { Deployment } from '../deployments/deployment.entity.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { RedisConnection } from '../redis/redis.module.js';
import type { SiteAddress } from '../sites/sites.service.js';
import { ServedSite, servedSiteOf } from './served-site.js';
import { environmentReadings } from './site-hosts.js';

/** What a site label names. */
export type SiteLookup =
  | { kind: 'site'; site: ServedSite; address: SiteAddress }
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
const MOVING_EVENTS = new Set(['app.created', 'app.updated', 'app.deleted', 'app.published', 'app.unpublished', 'deployment.succeeded']);

/**
 * Host → deployment, in memory: a site's label (`dep-…`, `<env>--<slug>`, `<slug>`) resolved once
 * and kept 30 s, its deployment (manifest and config) kept beside it. An app's change evicts its labels
 * as soon as it commits — in this process through `DomainEvents.observeCommitted`, on the others
 * through Redis pub/sub — together with every label that named nothing (a new slug may name something
 * now). A lookup that was reading while an eviction happened is not kept (it may have read the old
 * rows), and a subscriber that reconnects empties the cache (evictions may have been missed).
 */
@Injectable()
export class SiteDirectory implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Sites');
  private readonly labels = new Map<string, Entry>();
  private readonly sites = new Map<string, ServedSite>();
  private readonly loading = new Map<string, Promise<SiteLookup>>();
  private manifestEntries = 0;
  private evictions = 0;
  private subscriber: Redis | null = null;

  constructor(
    private readonly deployments: DeploymentsService,
    private readonly apps: AppsService,
    private readonly addresses: AppAddresses,
    private readonly redis: RedisConnection,
    events: DomainEvents,
  ) {
    events.observeCommitted((event) => {
      if (MOVING_EVENTS.has(event.name)) void this.evict((event.data as { appId: string }).appId);
    });
  }

  onModuleInit(): void {
    const subscriber = (this.subscriber = this.redis.duplicate());
    if (!subscriber) return;
    let subscribedBefore = false;
    subscriber.on('ready', () => {
      if (subscribedBefore) this.forget(null, true);
      subscribedBefore = true;
      subscriber.subscribe(this.channel).catch((err: Error) => this.logger.warn({ err: { message: err.message } }, 'Could not subscribe to site changes'));
    });
    subscriber.on('message', (_channel: string, appId: string) => this.forget(appId, false));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }

  /** What the label names when it is in memory (no promise: the hot path), else undefined. */
  peek(label: string): SiteLookup | undefined {
    const entry = this.labels.get(label);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.lookup;
    this.labels.delete(label);
    return undefined;
  }

  /** What the label names; concurrent misses of one label share one lookup. */
  lookup(label: string): Promise<SiteLookup> {
    const cached = this.peek(label);
    if (cached) return Promise.resolve(cached);
    let pending = this.loading.get(label);
    if (!pending) {
      const epoch = this.evictions;
      pending = this.resolve(label)
        .then(({ lookup, appId }) => {
          if (epoch === this.evictions) this.remember(label, lookup, appId);
          return lookup;
        })
        .finally(() => this.loading.delete(label));
      this.loading.set(label, pending);
    }
    return pending;
  }

  /** Forgets the app's labels here and on every instance. */
  async evict(appId: string): Promise<void> {
    this.forget(appId, false);
    if (!this.redis.client) return;
    try {
      await this.redis.client.publish(this.channel, appId);
    } catch (err) {
      this.logger.warn(
        { err: { message: (err as Error).message } },
        `Could not broadcast a change of ${appId}; other instances see it within ${FOUND_TTL_MS / 1000} s`,
      );
    }
  }

  private async resolve(label: string): Promise<{ lookup: SiteLookup; appId: string | null }> {
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
    const { app } = named;
    if (app.publishState === 'unpublished') return { lookup: { kind: 'gone' }, appId: app.id };
    if (app.publishState !== 'published' || !app.publishedDeploymentId) return { lookup: { kind: 'none' }, appId: app.id };
    const deployment = await this.deployments.findServable(app.publishedDeploymentId);
    return deployment ? this.found(deployment, 'public') : { lookup: { kind: 'none' }, appId: app.id };
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
    this.labels.delete(label);
    this.labels.set(label, { lookup, appId, until: Date.now() + ttl });
    if (this.labels.size > MAX_LABELS) this.labels.delete(this.labels.keys().next().value!);
  }

  /** Drops the app's labels and deployments (all of them when `all`), and every label that named nothing. */
  private forget(appId: string | null, all: boolean): void {
    this.evictions++;
    for (const [label, entry] of this.labels) if (all || entry.appId === null || entry.appId === appId) this.labels.delete(label);
    for (const [id, site] of this.sites) {
      if (!all && site.deployment.appId !== appId) continue;
      this.sites.delete(id);
      this.manifestEntries -= site.files?.size ?? 0;
    }
  }

  private get channel(): string {
    return this.redis.key('sites', 'changed');
  }
}

import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PeriodicJobs } from '../common/periodic/periodic-jobs.js';
import { AppConfig } from '../config/app-config.js';
import { type ChannelSubscription, RedisConnection } from '../redis/redis.module.js';
import { DomainsRepository } from './domains.repository.js';
import { hostnameOfHeader } from './hostname.js';

/** A safety net beside the change messages: every verified domain is read again this often. */
const RELOAD_INTERVAL_MS = 5 * 60_000;

/**
 * Host → app of every verified custom domain, in memory: host routing asks it synchronously on every
 * request (Fastify's `rewriteUrl` cannot wait), so all of them are here — about 100 bytes a domain.
 * Loaded at start; a verification, failure or deletion re-reads its hostname as soon as it commits,
 * here and, through Redis pub/sub, on every other instance; a subscriber that reconnects (messages
 * may have been missed) and a timer every 5 minutes read them all again. Reads and re-reads run one
 * after the other, so an older answer never overwrites a newer one.
 */
@Injectable()
export class CustomDomains implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Domains');
  private hosts = new Map<string, string>();
  private updates: Promise<void> = Promise.resolve();
  private subscription: ChannelSubscription | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly domains: DomainsRepository,
    private readonly redis: RedisConnection,
    jobs: PeriodicJobs,
  ) {
    jobs.add({
      name: 'custom-domains-reload',
      schedule: { everyMs: RELOAD_INTERVAL_MS },
      runsOn: 'every-instance',
      run: () => (this.config.runsHttpApi ? this.update(() => this.reload()) : Promise.resolve()),
    });
  }

  onModuleInit(): void {
    if (!this.config.runsHttpApi) return;
    this.subscription = this.redis.subscribe(this.channel, {
      topic: 'domain changes',
      onMessage: (hostname) => void this.update(() => this.refresh(hostname)),
      onGap: () => void this.update(() => this.reload()),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.runsHttpApi) return;
    // Before the server listens: a verified domain is served from the first request on.
    await this.update(() => this.reload());
  }

  async onApplicationShutdown(): Promise<void> {
    // Before the wait: a change message after it would start a read nothing waits for, while the database closes.
    await this.subscription?.close();
    await this.updates;
  }

  /** The app the verified custom domain of this `Host` header serves (any case, port or trailing dot), if any. */
  appOfHost(host: string | undefined): string | undefined {
    if (this.hosts.size === 0) return undefined;
    const name = hostnameOfHeader(host);
    return name === undefined ? undefined : this.hosts.get(name);
  }

  /** Host routing's question (see `siteRouting`): the app a request's verified custom domain serves, if any. */
  routeRequest(raw: { headers: { host?: string } }): string | undefined {
    return this.appOfHost(raw.headers.host);
  }

  /** After a commit that changed whether `hostname` is verified: read it again here and on every other instance. */
  async changed(hostname: string): Promise<void> {
    if (this.config.runsHttpApi) await this.update(() => this.refresh(hostname));
    if (!this.redis.client) return;
    try {
      await this.redis.client.publish(this.channel, hostname);
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, `Could not broadcast a change of ${hostname}; other instances see it within 5 minutes`);
    }
  }

  /** Runs `work` after every read already under way. */
  private update(work: () => Promise<void>): Promise<void> {
    this.updates = this.updates.then(work).catch((err: unknown) => this.logger.error({ err }, 'Could not read the verified custom domains'));
    return this.updates;
  }

  private async refresh(hostname: string): Promise<void> {
    const appId = await this.domains.appOfVerified(hostname);
    if (appId) this.hosts.set(hostname, appId);
    else this.hosts.delete(hostname);
  }

  private async reload(): Promise<void> {
    this.hosts = new Map((await this.domains.verifiedHosts()).map(({ hostname, appId }) => [hostname, appId]));
  }

  private get channel(): string {
    return this.redis.key('domains', 'changed');
  }
}

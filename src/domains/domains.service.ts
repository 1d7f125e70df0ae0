import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppErasure, AppErasureParticipant } from '../apps/app-erasure.js';
import type { App } from '../apps/app.entity.js';
import { AppsService } from '../apps/apps.service.js';
import { newId, randomBase62 } from '../common/ids.js';
import { Page, PageRequest, toPage } from '../common/pagination/page.js';
import { AppConfig } from '../config/app-config.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import { DomainEvents } from '../events/domain-events.service.js';
import { CustomDomains } from './custom-domains.js';
import { challengeName, DnsFindings, DomainDns } from './domain-dns.js';
import { Domain, DomainCheck } from './domain.entity.js';
import { afterRecheck, firstCheck, nextCheck, SCHEDULED_CHECK } from './domain-schedule.js';
import { DomainsError } from './domains.errors.js';
import { DomainsRepository } from './domains.repository.js';
import { DomainDto } from './dto/domain.dto.js';
import { parseHostname } from './hostname.js';

/** The most domains one app may have. */
export const DOMAINS_PER_APP = 10;

/** How a check was started: by the account (`POST …/verify`), or by the worker's schedule. */
type CheckTrigger = 'manual' | 'scheduled';

/**
 * Custom domains: an account claims a host name for an app, proves it controls the name with a TXT
 * record, and points the name at the app's target; from then on the name serves the app's public
 * address. A verified name is re-checked daily: once its TXT record has been gone for the grace
 * period (DOMAIN_PROOF_GRACE_HOURS) it is `lapsed` — no longer served, and whoever proves control
 * next owns it. Emits `domain.verified`, `domain.failed`, `domain.lapsed` and `domain.deleted`.
 */

@Injectable()
export class DomainsService implements AppErasureParticipant, OnModuleInit {
  constructor(
    private readonly db: Transactions,
    private readonly domains: DomainsRepository,
    private readonly apps: AppsService,
    private readonly events: DomainEvents,
    private readonly dns: DomainDns,
    private readonly directory: CustomDomains,
    private readonly erasure: AppErasure,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
  ) {}

  onModuleInit(): void {
    this.erasure.register(this);
  }

  /**
   * Claims `hostname` for the app: 400 naming what is wrong with the name, 409 when the app has
   * 10 domains, the account claimed the name already, or another account verified it.
   */
  async create(accountId: string, actor: Actor, appId: string, input: { hostname: string }): Promise<DomainDto> {
    const parsed = parseHostname(input.hostname, this.platformNames());
    if ('problem' in parsed) throw DomainsError.badHostname(parsed.problem, parsed.message);
    const { hostname } = parsed;
    try {
      return await this.db.run(async () => {
        // FOR UPDATE: concurrent claims for one app count one after the other.
        const app = await this.apps.lockOwned(accountId, appId);
        if ((await this.domains.countForApp(app.id)) >= DOMAINS_PER_APP) throw DomainsError.limitReached(app.id, DOMAINS_PER_APP);
        const owner = await this.domains.verifiedOwner(hostname);
        if (owner !== undefined) throw owner === accountId ? DomainsError.exists(hostname) : DomainsError.taken(hostname);
        const createdAt = new Date();
        const domain = await this.domains.insert({
          id: newId('dom'),
          accountId,
          appId: app.id,
          hostname,
          status: 'pending',
          verificationToken: randomBase62(32),
          configured: false,
          lastCheck: null,
          nextCheckAt: firstCheck(createdAt),
          proofMissingSince: null,
          verifiedAt: null,
          createdAt,
        });
        await this.audit.record(accountId, actor, 'domain.added', domain.id);
        return this.toDto(domain, app);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw DomainsError.exists(hostname);
      throw err;
    }
  }

  async list(accountId: string, appId: string, page: PageRequest): Promise<Page<DomainDto>> {
    const app = await this.apps.requireOwned(accountId, appId);
    return toPage(await this.domains.listForApp(app.id, page), page, (d) => this.toDto(d, app));
  }

  async get(accountId: string, id: string): Promise<DomainDto> {
    const domain = await this.requireDomain(accountId, id);
    return this.toDto(domain, await this.apps.requireOwned(accountId, domain.appId));
  }

  /** Deletes the domain: its name stops serving the app (and gets no certificate) at once. Emits `domain.deleted`. */
  async delete(accountId: string, actor: Actor, id: string): Promise<void> {
    await this.db.run(async () => {
      const domain = await this.domains.findForUpdate(id);
      if (!domain || domain.accountId !== accountId) throw DomainsError.notFound(id);
      await this.remove(domain);
      await this.audit.record(accountId, actor, 'domain.deleted', id);
    });
  }

  /** An app's deletion (in its transaction): its domains go with it, each with `domain.deleted`. */
  async eraseApp(_accountId: string, appId: string): Promise<void> {
    for (const domain of await this.domains.allOfApp(appId)) await this.remove(domain);
  }

  /**
   * Checks the domain's DNS now and answers it: `verified` once the TXT record holds its value (409
   * when another account verified the name first); otherwise as it was, with `lastCheck` saying what
   * was found. A failed or lapsed domain whose record appears is verified too. On a verified domain it
   * is the re-check on demand: a record gone starts (or continues) the grace period.
   */
  async verify(accountId: string, actor: Actor, id: string): Promise<DomainDto> {
    const domain = await this.requireDomain(accountId, id);
    const app = await this.apps.requireOwned(accountId, domain.appId);
    const checked = await this.check(domain, app, 'manual', actor);
    if (!checked) throw DomainsError.notFound(id);
    if (checked.lastCheck?.result === 'taken') throw DomainsError.taken(checked.hostname);
    return this.toDto(checked, app);
  }

  /**
   * The worker's check of a domain (any account's) whose turn has come. Pending: verified, still
   * pending with its next check scheduled, or `failed` at 7 days. Verified: the proof is still there
   * (next re-check in a day), missing within the grace period (hourly), or missing past it (`lapsed`).
   */
  async recheck(id: string): Promise<void> {
    const domain = await this.domains.findById(id);
    if (!domain || (domain.status !== 'pending' && domain.status !== 'verified')) return;
    const app = await this.apps.byId(domain.appId);
    if (app) await this.check(domain, app, 'scheduled', SCHEDULED_CHECK);
  }

  toDto(domain: Domain, app: Pick<App, 'slug'>): DomainDto {
    return {
      id: domain.id,
      hostname: domain.hostname,
      appId: domain.appId,
      status: domain.status,
      verification: { type: 'TXT', name: challengeName(domain.hostname), value: domain.verificationToken },
      target: { type: 'CNAME', name: domain.hostname, value: this.targetOf(app) },
      configured: domain.configured,
      lastCheck: domain.lastCheck,
      verifiedAt: domain.verifiedAt?.toISOString() ?? null,
      nextCheckAt: domain.nextCheckAt?.toISOString() ?? null,
      proofMissingSince: domain.proofMissingSince?.toISOString() ?? null,
      createdAt: domain.createdAt.toISOString(),
    };
  }

  /** Where the name must point: the app's host under SITES_DOMAIN, else the API's own host. */
  private targetOf(app: Pick<App, 'slug'>): string {
    return this.config.SITES_DOMAIN ? `${app.slug}.${this.config.SITES_DOMAIN}` : new URL(this.config.publicUrl).hostname;
  }

  /**
   * Looks the records up (outside any transaction: DNS may take seconds), then records what was
   * found on the row as it is by then. Verifications of one hostname run one at a time, so the first
   * to find its record owns the name. Answers the domain after the check, or null if it was deleted
   * meanwhile.
   */
  private async check(domain: Domain, app: Pick<App, 'slug'>, trigger: CheckTrigger, actor: Actor): Promise<Domain | null> {
    const findings = await this.dns.check(domain.hostname, domain.verificationToken, this.targetOf(app));
    const now = new Date();
    const checked = await this.db.run(async () => {
      await this.domains.lockHostname(domain.hostname);
      const row = await this.domains.findForUpdate(domain.id);
      if (!row) return null;
      row.configured = findings.configured;
      row.lastCheck = lastCheckOf(findings, now);
      if (findings.result === 'verified' && row.status !== 'verified') {
        if ((await this.domains.verifiedOwner(row.hostname, row.id)) !== undefined) {
          row.lastCheck = { ...row.lastCheck, result: 'taken', message: `The TXT record is right, but another account verified ${row.hostname} first` };
        } else {
          Object.assign(row, { status: 'verified', verifiedAt: now, proofMissingSince: null });
          await this.events.raise('domain.verified', row.accountId, eventData(row));
          await this.audit.record(row.accountId, actor, 'domain.verified', row.id);
          this.db.afterCommit(() => this.directory.changed(row.hostname));
        }
      }
      if (row.status === 'verified') await this.recheckedVerified(row, findings, now, actor);
      if (row.status === 'pending' && trigger === 'scheduled') {
        const next = nextCheck(row.createdAt, now);
        if (next === 'fail') {
          Object.assign(row, { status: 'failed', nextCheckAt: null });
          await this.events.raise('domain.failed', row.accountId, eventData(row));
        } else row.nextCheckAt = next;
      }
      return this.domains.save(row);
    });
    return checked;
  }

  /**
   * In the check's transaction, a verified domain after its check: the proof found clears the grace
   * period; missing (no record, or not the value — a resolver's failure proves nothing either way)
   * starts it; once it has been missing the whole grace period the domain lapses and stops serving.
   */
  private async recheckedVerified(row: Domain, findings: DnsFindings, now: Date, actor: Actor): Promise<void> {
    const { missingSince, next } = afterRecheck(row.proofMissingSince, findings.result, now, this.config.DOMAIN_PROOF_GRACE_HOURS * 3_600_000);
    row.proofMissingSince = missingSince;
    if (next !== 'lapse') {
      row.nextCheckAt = next;
      return;
    }
    Object.assign(row, { status: 'lapsed', nextCheckAt: null });
    await this.events.raise('domain.lapsed', row.accountId, eventData(row));
    await this.audit.record(row.accountId, actor, 'domain.lapsed', row.id);
    this.db.afterCommit(() => this.directory.changed(row.hostname));
  }

  /** In the caller's transaction: the row goes, `domain.deleted` is raised, and once committed the name stops serving. */
  private async remove(domain: Domain): Promise<void> {
    await this.domains.delete(domain.id);
    await this.events.raise('domain.deleted', domain.accountId, eventData(domain));
    if (domain.status === 'verified') this.db.afterCommit(() => this.directory.changed(domain.hostname));
  }

  private async requireDomain(accountId: string, id: string): Promise<Domain> {
    const domain = await this.domains.find(accountId, id);
    if (!domain) throw DomainsError.notFound(id);
    return domain;
  }

  private platformNames() {
    return { sitesDomain: this.config.SITES_DOMAIN, publicHost: new URL(this.config.publicUrl).hostname };
  }
}

function lastCheckOf(findings: DnsFindings, at: Date): DomainCheck {
  return { checkedAt: at.toISOString(), result: findings.result, message: findings.message, found: findings.found };
}

function eventData(domain: Domain): { domainId: string; appId: string; hostname: string } {
  return { domainId: domain.id, appId: domain.appId, hostname: domain.hostname };
}

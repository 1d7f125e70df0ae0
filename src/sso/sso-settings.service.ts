import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import type { Principal } from '../common/request-context/principal.js';
import { requireOwnerMember } from '../common/request-context/owner-member.js';
import { Transactions } from '../database/transactions.js';
import { MfaService } from '../mfa/mfa.service.js';
import { SecretBox } from '../webhooks/secret-box.js';
import { randomBase62 } from '../common/ids.js';
import { DomainDns } from '../domains/domain-dns.js';
import { DomainRecheck } from '../domains/domain-recheck.service.js';
import { afterRecheck, SCHEDULED_CHECK } from '../domains/domain-schedule.js';
import type { SsoDomainDto, SsoSettingsDto } from './dto/sso.dto.js';
import { discoverIssuer, issuerUrl } from './oidc-issuer.js';
import { publicMailDomainOf } from './public-mail-domains.js';
import { SsoError } from './sso.errors.js';
import { SsoRepository, type SsoDomainProof, type SsoRole, type StoredSso } from './sso.repository.js';

export const SSO_CALLBACK_PATH = '/portal/sso/callback';

/** Where the TXT record that proves an SSO domain goes (not the custom domains' name: another purpose, another value). */
export function ssoChallengeName(domain: string): string {
  return `_platform-sso-challenge.${domain}`;
}

export interface SsoInput {
  issuer: string;
  clientId: string;
  /** Omitted: keep the stored secret (it is write-only) — only while issuer and client id stay the same. */
  clientSecret?: string;
  domains: string[];
  defaultRole: SsoRole;
  required: boolean;
}

/**
 * An account's OpenID Connect single sign-on: its settings (the client secret sealed like webhook
 * secrets, never answered), checked by discovery before they are saved, and "SSO required": a
 * member then signs in through the provider only. An owner keeps a way in when the provider is
 * down or misconfigured — password plus MFA — so only an owner who has MFA on may still use a
 * password; an owner without MFA is refused too (a password alone is what SSO required rules out).
 *
 * An allowed e-mail domain routes sign-ins ("Sign in with SSO") and admits new members only once the
 * account proved it controls it: a TXT record at `_platform-sso-challenge.<domain>` holding the value
 * the settings answer, as Okta, Auth0 and WorkOS ask. Several accounts may list a domain; the first to
 * prove it owns it (other accounts' proofs and listings of it are refused with 409 from then on). A proven
 * domain is checked again like a verified custom domain — by the same worker job, on the same schedule
 * (DomainRecheck, domain-schedule.ts) and on demand — and once its record has been gone for the grace period
 * (DOMAIN_PROOF_GRACE_HOURS) it is `lapsed`: it routes no sign-in, and whoever proves it next owns it.
 */
@Injectable()
export class SsoSettingsService implements OnModuleInit {
  constructor(
    private readonly db: Transactions,
    private readonly sso: SsoRepository,
    private readonly box: SecretBox,
    private readonly mfa: MfaService,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
    private readonly dns: DomainDns,
    private readonly rechecks: DomainRecheck,
  ) {}

  onModuleInit(): void {
    this.rechecks.register({
      kind: 'SSO domain',
      claimDue: async (limit, leaseMs) => (await this.sso.claimDue(limit, leaseMs)).map((p) => `${p.accountId}/${p.domain}`),
      recheck: (key) => {
        const slash = key.indexOf('/');
        return this.recheck(key.slice(0, slash), key.slice(slash + 1));
      },
    });
  }

  /**
   * Only an owner member (signed in to the portal, never a credential) changes single sign-on: the
   * settings decide where members' sign-ins go, so whoever changes them could sign in as any member,
   * an owner included. SsoError (403) for another role.
   */
  mayChange(principal: Principal): void {
    requireOwnerMember(principal, 'owners:manage', (role) => SsoError.ownersOnly(role ?? 'removed member'));
  }

  get redirectUri(): string {
    return `${this.config.publicUrl}${SSO_CALLBACK_PATH}`;
  }

  /** The settings; SsoError (404) when none are set up. */
  async get(accountId: string): Promise<SsoSettingsDto> {
    const stored = await this.sso.find(accountId);
    if (!stored) throw SsoError.notConfigured();
    return this.toDto(stored, await this.sso.proofs(accountId));
  }

  /** The settings or null (the portal's page shows an empty form). */
  async find(accountId: string): Promise<SsoSettingsDto | null> {
    const stored = await this.sso.find(accountId);
    return stored && this.toDto(stored, await this.sso.proofs(accountId));
  }

  /** Saves the settings once the issuer's discovery document answered for them (422 otherwise). */
  async configure(accountId: string, actor: Actor, input: SsoInput): Promise<SsoSettingsDto> {
    const domains = [...new Set(input.domains.map((d) => d.trim().toLowerCase()))];
    const issuer = input.issuer.trim().replace(/\/+$/, '');
    const stored = await this.sso.find(accountId);
    const publicDomain = publicMailDomainOf(domains);
    if (publicDomain) throw SsoError.domainPublic(publicDomain);
    issuerUrl(issuer, this.config.SSO_ALLOW_INSECURE_LOOPBACK);
    // The stored secret goes only to the issuer and client it was given for: a new issuer or client id needs its own.
    const sameClient = stored !== null && stored.issuer === issuer && stored.clientId === input.clientId;
    const secret = input.clientSecret ?? (sameClient ? this.box.open(stored.sealedSecret) : undefined);
    if (secret === undefined) throw SsoError.secretRequired();
    await discoverIssuer(issuer, input.clientId, secret, this.config.SSO_ALLOW_INSECURE_LOOPBACK);
    await this.db.run(async () => {
      const taken = await this.sso.domainsOfOthers(accountId, domains);
      if (taken.length > 0) throw SsoError.domainTaken(taken[0]);
      await this.sso.save(accountId, {
        issuer,
        clientId: input.clientId,
        sealedSecret: input.clientSecret === undefined ? null : this.box.seal(input.clientSecret),
        domains,
        defaultRole: input.defaultRole,
        required: input.required,
      });
      await this.sso.syncProofs(accountId, domains, () => randomBase62(32));
      // Turned on: password sessions must not outlive the rule. Members other than owners sign in again, through SSO.
      if (input.required && !stored?.required) await this.sso.endSessionsOfNonOwners(accountId);
      await this.audit.record(accountId, actor, 'sso.configured', accountId);
    });
    return this.get(accountId);
  }

  /**
   * Looks for the domain's TXT record now and answers the settings: the domain `verified` once the
   * record holds its value (409 when another account proved it first), else as it was with `lastCheck`
   * saying what was found. On a verified domain it is the re-check on demand: a record gone starts (or
   * continues) the grace period. A lapsed domain whose record is back is verified again, unless another
   * account proved it meanwhile. 404 when the domain is not one of the account's SSO domains.
   */
  async verifyDomain(accountId: string, actor: Actor, input: string): Promise<SsoSettingsDto> {
    const domain = input.trim().toLowerCase();
    const proof = await this.sso.proof(accountId, domain);
    if (!proof) throw SsoError.domainNotListed(domain.slice(0, 253));
    const checked = await this.check(accountId, proof, actor);
    if (!checked) throw SsoError.domainNotListed(domain);
    if (checked.lastCheck?.result === 'taken') throw SsoError.domainProvenByOther(domain);
    return this.get(accountId);
  }

  /** The worker's re-check of a proven domain whose turn has come (DomainRecheck). */
  async recheck(accountId: string, domain: string): Promise<void> {
    const proof = await this.sso.proof(accountId, domain);
    if (proof?.status === 'verified') await this.check(accountId, proof, SCHEDULED_CHECK);
  }

  /**
   * Looks the record up (outside any transaction: DNS may take seconds), then records what was found on the
   * row as it is by then; checks of one domain run one at a time, so the first to find its record owns it.
   * The proof after the check, or null if the domain was dropped from the settings meanwhile.
   */
  private async check(accountId: string, proof: SsoDomainProof, actor: Actor): Promise<SsoDomainProof | null> {
    const { domain } = proof;
    const findings = await this.dns.proof(ssoChallengeName(domain), proof.token);
    const now = new Date();
    return this.db.run(async () => {
      await this.sso.lockDomain(domain);
      const row = await this.sso.proofForUpdate(accountId, domain);
      if (!row) return null;
      row.lastCheck = { checkedAt: now.toISOString(), ...findings };
      if (findings.result === 'verified' && row.status !== 'verified') {
        if ((await this.sso.domainsOfOthers(accountId, [domain])).length > 0) {
          row.lastCheck = { ...row.lastCheck, result: 'taken', message: `The TXT record is right, but another account proved ${domain} first` };
        } else {
          Object.assign(row, { status: 'verified', verifiedAt: now, proofMissingSince: null });
          await this.audit.record(accountId, actor, 'sso.domain_verified', accountId);
        }
      }
      if (row.status === 'verified') {
        // As a verified custom domain: daily while the proof is there, hourly once it is gone, lapsed after the grace period.
        const { missingSince, next } = afterRecheck(row.proofMissingSince, findings.result, now, this.config.DOMAIN_PROOF_GRACE_HOURS * 3_600_000);
        Object.assign(
          row,
          next === 'lapse' ? { status: 'lapsed', nextCheckAt: null, proofMissingSince: missingSince } : { nextCheckAt: next, proofMissingSince: missingSince },
        );
        if (next === 'lapse') await this.audit.record(accountId, actor, 'sso.domain_lapsed', accountId);
      }
      await this.sso.saveProof(accountId, row);
      return row;
    });
  }

  /** Turns single sign-on off (members then sign in with passwords again); 404 when it was not on. */
  async remove(accountId: string, actor: Actor): Promise<void> {
    await this.db.run(async () => {
      if (!(await this.sso.clear(accountId))) throw SsoError.notConfigured();
      await this.audit.record(accountId, actor, 'sso.removed', accountId);
    });
  }

  /** Whether the account requires single sign-on. */
  async requiredFor(accountId: string): Promise<boolean> {
    return (await this.sso.find(accountId))?.required === true;
  }

  /** Whether a correct password must still be refused: SSO required, unless an owner with MFA on (the recovery path). */
  async refusesPassword(memberId: string): Promise<boolean> {
    const policy = await this.sso.passwordPolicy(memberId);
    if (!policy?.ssoRequired) return false;
    if (policy.role !== 'owner') return true;
    return !(await this.mfa.isEnrolled(memberId));
  }

  private toDto(s: StoredSso, proofs: SsoDomainProof[]): SsoSettingsDto {
    const byDomain = new Map(proofs.map((p) => [p.domain, p]));
    return {
      issuer: s.issuer,
      clientId: s.clientId,
      clientSecretSet: true,
      domains: s.domains,
      domainProofs: s.domains.flatMap((d) => {
        const p = byDomain.get(d);
        return p ? [proofDto(p)] : [];
      }),
      defaultRole: s.defaultRole,
      required: s.required,
      redirectUri: this.redirectUri,
      updatedAt: s.updatedAt.toISOString(),
    };
  }
}

function proofDto(p: SsoDomainProof): SsoDomainDto {
  return {
    domain: p.domain,
    status: p.status,
    verification: { type: 'TXT', name: ssoChallengeName(p.domain), value: p.token },
    lastCheck: p.lastCheck,
    verifiedAt: p.verifiedAt ? new Date(p.verifiedAt).toISOString() : null,
    nextCheckAt: p.nextCheckAt ? new Date(p.nextCheckAt).toISOString() : null,
    proofMissingSince: p.proofMissingSince ? new Date(p.proofMissingSince).toISOString() : null,
  };
}

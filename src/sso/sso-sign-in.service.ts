import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import type { AuditAction } from '../audit/audit-actions.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { truncatedIp } from '../common/client-network.js';
import { newId } from '../common/ids.js';
import { AppConfig } from '../config/app-config.js';
import { ServerSecrets } from '../config/server-secrets.js';
import { isUniqueViolation } from '../database/postgres-errors.js';
import { Transactions } from '../database/transactions.js';
import { MembersRepository } from '../members/members.repository.js';
import { MfaService } from '../mfa/mfa.service.js';
import { SecretBox } from '../webhooks/secret-box.js';
import { discoverIssuer } from './oidc-issuer.js';
import { SsoSettingsService } from './sso-settings.service.js';
import { SsoError } from './sso.errors.js';
import { SsoRepository, type StoredSso } from './sso.repository.js';

/** How long a browser has between "Sign in with SSO" and the provider's answer. */
export const SSO_FLOW_TTL_MS = 10 * 60_000;
/** How long a provider's discovery document (and the signing keys openid-client caches with it) is reused. */
const DISCOVERY_TTL_MS = 5 * 60_000;

/** What the browser carries (sealed, in a cookie) between the redirect to the provider and its answer. */
interface Flow {
  /** account */
  a: string;
  /** state, nonce, PKCE code verifier */
  s: string;
  n: string;
  v: string;
  /** expires (ms) */
  x: number;
}

/** Who the provider signed in; `secondFactor`: a member with MFA on, who still types a code before any session (SSO never replaces their own second factor). */
export interface SsoSignedIn {
  accountId: string;
  memberId: string;
  email: string;
  secondFactor: boolean;
}

export interface SsoStart {
  /** The provider's authorization URL to send the browser to. */
  url: string;
  /** The sealed flow, for a short-lived cookie of this browser only. */
  flow: string;
}

const normalised = (email: string) => email.trim().toLowerCase();
/** Printable ASCII, no spaces: what an e-mail from the provider must be before it is lower-cased and compared. */
const PLAIN_ASCII_EMAIL = /^[\x21-\x7e]+$/;
const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/**
 * A sign-in through the account's OpenID provider: authorization code flow with PKCE (S256), a state
 * and a nonce. The verifier, state and nonce never leave the server but sealed (AES-256-GCM) in a
 * cookie of the browser that started, valid 10 minutes: an answer the provider sends to another
 * browser, or with another state, opens nothing. openid-client checks the ID token's signature,
 * issuer, audience, nonce and times; here the e-mail must be verified (when the provider says) and
 * in the account's allowed domains. A member of the account signs in as themselves; an unknown
 * e-mail becomes a member with the default role; an e-mail of another account's member is refused.
 */
@Injectable()
export class SsoSignInService {
  private readonly flowBox: SecretBox;
  /** Per issuer, client and sealed secret (sealed afresh on every change of the settings): a change is never served stale. */
  private readonly configs = new Map<string, { config: Promise<client.Configuration>; until: number }>();

  constructor(
    private readonly db: Transactions,
    private readonly sso: SsoRepository,
    private readonly settings: SsoSettingsService,
    private readonly members: MembersRepository,
    private readonly audit: AuditLog,
    private readonly box: SecretBox,
    private readonly mfa: MfaService,
    private readonly config: AppConfig,
    secrets: ServerSecrets,
  ) {
    this.flowBox = new SecretBox(secrets.keyFor('sso-flow').toString('base64url'));
  }

  /** Where the browser of this e-mail goes to sign in; SsoError (404) when no account's SSO allows its domain. */
  async start(email: string): Promise<SsoStart> {
    const address = normalised(email);
    const accountId = address.includes('@') ? await this.sso.accountForDomain(domainOf(address)) : null;
    const stored = accountId ? await this.sso.find(accountId) : null;
    if (!accountId || !stored) throw SsoError.unknownDomain();
    const config = await this.configOf(stored);
    const flow: Flow = { a: accountId, s: client.randomState(), n: client.randomNonce(), v: client.randomPKCECodeVerifier(), x: Date.now() + SSO_FLOW_TTL_MS };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: 'openid email',
      state: flow.s,
      nonce: flow.n,
      code_challenge: await client.calculatePKCECodeChallenge(flow.v),
      code_challenge_method: 'S256',
      login_hint: address,
    });
    return { url: url.href, flow: this.flowBox.seal(JSON.stringify(flow)) };
  }

  /**
   * Completes the sign-in with the provider's answer (`params`: the callback's query) and this
   * browser's sealed flow; answers the member to start a session for.
   */
  async finish(params: URLSearchParams, sealedFlow: string | undefined, ip: string): Promise<SsoSignedIn> {
    const flow = this.openFlow(sealedFlow);
    if (!sameText(params.get('state') ?? '', flow.s)) throw SsoError.stateMismatch();
    const error = params.get('error');
    if (error) throw SsoError.providerError(error.slice(0, 100));
    const stored = await this.sso.find(flow.a);
    if (!stored) throw SsoError.notConfigured();
    const config = await this.configOf(stored);
    const callback = new URL(this.settings.redirectUri);
    callback.search = params.toString();
    let email: unknown;
    let verified: unknown;
    let subject: string;
    try {
      const tokens = await client.authorizationCodeGrant(
        config,
        callback,
        { pkceCodeVerifier: flow.v, expectedState: flow.s, expectedNonce: flow.n, idTokenExpected: true },
        { redirect_uri: this.settings.redirectUri },
      );
      const claims = tokens.claims()!;
      subject = claims.sub;
      ({ email, email_verified: verified } = claims);
      if (typeof email !== 'string') {
        // Some providers put the e-mail in the userinfo answer only (openid-client checks it names the same sub).
        const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        ({ email, email_verified: verified } = info);
      }
    } catch (err) {
      throw tokenProblem(err);
    }
    if (typeof email !== 'string' || !email.includes('@'))
      throw SsoError.tokenRejected('it names no e-mail address (the provider must grant the "email" scope)');
    // Plain ASCII only: a look-alike (the Kelvin sign U+212A lower-cases to "k") must not become another member's address.
    const trimmed = email.trim();
    if (!PLAIN_ASCII_EMAIL.test(trimmed)) throw SsoError.emailNotAscii();
    const address = trimmed.toLowerCase();
    const existing = await this.sso.memberByEmail(address);
    const refuse = async (refusal: SsoError) => {
      if (existing?.accountId === flow.a) await this.record(flow.a, existing.id, address, ip, 'sign_in.failed');
      return refusal;
    };
    if (verified === false || verified === 'false') throw await refuse(SsoError.emailNotVerified());
    // Listed is not enough: only a domain the account proved (DNS) admits members through its provider.
    if (!stored.domains.includes(domainOf(address)) || !(await this.sso.hasVerified(flow.a, domainOf(address))))
      throw await refuse(SsoError.emailOutsideDomains());
    if (existing && existing.accountId !== flow.a) throw SsoError.otherAccount();
    const linkedTo = await this.sso.memberOfIdentity(stored.issuer, subject);
    if (existing) {
      // Once linked, a member signs in as the provider identity of their first SSO sign-in, not anyone the provider gives their e-mail.
      const identity = await this.sso.identityOf(existing.id);
      if (identity?.issuer === stored.issuer && !sameText(identity.subject, subject)) throw await refuse(SsoError.identityMismatch());
      // Linking a member who signed in otherwise so far: only to an address the provider vouches for.
      if (identity?.issuer !== stored.issuer && verified !== true && verified !== 'true') throw await refuse(SsoError.emailNotVerified(true));
    }
    // The identity of another member (its e-mail changed at the provider): not this one.
    if (linkedTo !== null && linkedTo !== existing?.id) throw await refuse(SsoError.identityMismatch());
    return this.signIn(flow.a, existing?.id, address, subject, stored, ip);
  }

  private async signIn(accountId: string, memberId: string | undefined, email: string, subject: string, stored: StoredSso, ip: string): Promise<SsoSignedIn> {
    try {
      return await this.db.run(async () => {
        let id = memberId;
        if (id === undefined) {
          id = (await this.members.insert({ id: newId('mem'), accountId, email, role: stored.defaultRole })).id;
          await this.record(accountId, id, email, ip, 'member.joined');
        }
        await this.sso.linkIdentity(id, stored.issuer, subject);
        // A member with MFA signs in once their code passes (recorded then, by PortalSecondFactor).
        const secondFactor = await this.mfa.isEnrolled(id);
        if (!secondFactor) await this.record(accountId, id, email, ip, 'sign_in.succeeded');
        return { accountId, memberId: id, email, secondFactor };
      });
    } catch (err) {
      // The same e-mail's first sign-in twice at once: the other one created the member.
      if (!isUniqueViolation(err) || memberId !== undefined) throw err;
      const raced = await this.sso.memberByEmail(email);
      if (raced?.accountId !== accountId) throw SsoError.otherAccount();
      if ((await this.sso.memberOfIdentity(stored.issuer, subject)) !== raced.id) throw SsoError.identityMismatch();
      return this.signIn(accountId, raced.id, email, subject, stored, ip);
    }
  }

  private record(accountId: string, memberId: string, email: string, ip: string, action: AuditAction): Promise<void> {
    return this.audit.record(accountId, { type: 'member', id: memberId, label: email, ip: truncatedIp(ip) }, action, memberId);
  }

  private configOf(stored: StoredSso): Promise<client.Configuration> {
    const now = Date.now();
    for (const [key, cached] of this.configs) if (cached.until <= now) this.configs.delete(key);
    const key = `${stored.issuer}\n${stored.clientId}\n${stored.sealedSecret}`;
    let cached = this.configs.get(key);
    if (!cached) {
      cached = {
        config: discoverIssuer(stored.issuer, stored.clientId, this.box.open(stored.sealedSecret), this.config.SSO_ALLOW_INSECURE_LOOPBACK),
        until: now + DISCOVERY_TTL_MS,
      };
      this.configs.set(key, cached);
      // A provider that failed to answer is asked again next time.
      cached.config.catch(() => this.configs.delete(key));
    }
    return cached.config;
  }

  private openFlow(sealed: string | undefined): Flow {
    let flow: Flow;
    try {
      flow = JSON.parse(this.flowBox.open(sealed ?? '')) as Flow;
    } catch {
      throw SsoError.flowExpired();
    }
    if (typeof flow?.s !== 'string' || !(flow.x >= Date.now())) throw SsoError.flowExpired();
    return flow;
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** What was wrong with the provider's answer, in words for the page: the claim the ID token got wrong, above all. */
function tokenProblem(err: unknown): SsoError {
  if (err instanceof SsoError) return err;
  if (err instanceof client.AuthorizationResponseError) return SsoError.providerError(err.error);
  if (err instanceof client.ResponseBodyError) return SsoError.providerError(err.error);
  const cause = err instanceof Error && err.cause instanceof Error ? err.cause : undefined;
  const claim = (cause?.cause as { claim?: string } | undefined)?.claim;
  switch (claim) {
    case 'aud':
    case 'azp':
      return SsoError.tokenRejected('it was issued for another application (wrong audience)');
    case 'iss':
      return SsoError.tokenRejected('it was issued by another provider (wrong issuer)');
    case 'nonce':
      return SsoError.tokenRejected('it belongs to another sign-in (wrong nonce)');
  }
  return SsoError.tokenRejected(cause?.message ?? (err instanceof Error ? err.message : 'unknown error'));
}

import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AnalyticsError } from '../analytics/analytics.errors.js';
import { AppsService } from '../apps/apps.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { truncatedIp } from '../common/client-network.js';
import { newId } from '../common/ids.js';
import type { Actor } from '../common/request-context/actor.js';
import { AppConfig } from '../config/app-config.js';
import { ServerSecrets } from '../config/server-secrets.js';
import { Transactions } from '../database/transactions.js';
import { PasswordHasher } from '../portal/password-hash.js';
import { sha256 } from '../portal/sha256.js';
import { LOCKOUT_ATTEMPTS, LOCKOUT_WINDOW_MS, NEW_NETWORKS_ATTEMPTS, NEW_NETWORKS_WINDOW_MS } from '../portal/sign-in-lockout.js';
import { ANY_NEW_NETWORK, SignInLockoutRepository } from '../portal/sign-in-lockout.repository.js';
import { AnalyticsShare, AnalyticsSharesRepository, ResolvedShare } from './analytics-shares.repository.js';
import type { AnalyticsShareDto, CreateAnalyticsShareDto } from './dto/analytics-share.dto.js';

export const MAX_SHARES = 20;
/** How long a share's unlock cookie (after its password) lasts. */
export const SHARE_COOKIE_MS = 24 * 3600_000;
/** A token: 32 bytes of HMAC, base64url. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What a password attempt at a share came to. */
export type Unlock = { ok: true; cookie: string } | { ok: false; locked: boolean };

/**
 * Shared dashboards: read-only links to one app's analytics (`/share/<token>`). The token is an HMAC of
 * the share's id under a key derived from SESSION_SECRET, so the list can show every link again while the
 * table keeps only its SHA-256 (docs/decisions/2026-11-29-analytics-share-tokens.md). A password is
 * hashed as the portal's are, and its guesses are counted by the sign-in lockout's table, keyed by the
 * share: 5 a network per 15 minutes, 20 an hour from everywhere.
 */
@Injectable()
export class AnalyticsShares {
  private readonly tokenKey: Buffer;
  private readonly cookieKey: Buffer;

  constructor(
    private readonly shares: AnalyticsSharesRepository,
    private readonly apps: AppsService,
    private readonly audit: AuditLog,
    private readonly db: Transactions,
    private readonly passwords: PasswordHasher,
    private readonly attempts: SignInLockoutRepository,
    private readonly config: AppConfig,
    secrets: ServerSecrets,
  ) {
    this.tokenKey = secrets.keyFor('analytics-share-token');
    this.cookieKey = secrets.keyFor('analytics-share-cookie');
  }

  async create(accountId: string, actor: Actor, appId: string, body: CreateAnalyticsShareDto): Promise<AnalyticsShareDto> {
    await this.apps.requireOwned(accountId, appId);
    const passwordHash = body.password ? await this.passwords.hash(body.password) : null;
    const id = newId('shr');
    const share = await this.db.run(async () => {
      await this.apps.lockOwned(accountId, appId); // one create at a time per app: the limit holds
      if ((await this.shares.count(appId)) >= MAX_SHARES) throw AnalyticsError.shareLimitReached(appId, MAX_SHARES);
      const row = await this.shares.insert({ id, appId, name: body.name, tokenHash: sha256(this.tokenOf(id)), passwordHash });
      await this.audit.record(accountId, actor, 'analytics_share.created', id);
      return row;
    });
    return this.toDto(share);
  }

  async list(accountId: string, appId: string): Promise<AnalyticsShareDto[]> {
    await this.apps.requireOwned(accountId, appId);
    return (await this.shares.list(appId)).map((s) => this.toDto(s));
  }

  /** Deletes the share: its link answers 404 from the next request on (each one looks the share up). */
  async delete(accountId: string, actor: Actor, appId: string, id: string): Promise<void> {
    await this.apps.requireOwned(accountId, appId);
    await this.db.run(async () => {
      if (!(await this.shares.delete(appId, id))) throw AnalyticsError.shareNotFound(id);
      await this.audit.record(accountId, actor, 'analytics_share.deleted', id);
    });
  }

  /** The share a link's token names, or null (malformed, unknown, deleted). */
  resolve(token: string): Promise<ResolvedShare | null> {
    if (!TOKEN.test(token)) return Promise.resolve(null);
    return this.shares.findByTokenHash(sha256(token));
  }

  /** Whether the request may see a protected share: its cookie is this share's, signed and not expired. */
  admits(share: AnalyticsShare, cookie: string | undefined, now = Date.now()): boolean {
    if (share.passwordHash === null) return true;
    const [expires, mac] = (cookie ?? '').split('.');
    if (!expires || !mac || !(Number(expires) > now)) return false;
    const expected = this.cookieMac(share, expires);
    const given = Buffer.from(mac, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** A password attempt from `ip`, counted before it is checked (so parallel guesses count too); right → the cookie's value. */
  async unlock(share: AnalyticsShare, password: string, ip: string, now = Date.now()): Promise<Unlock> {
    const key = sha256(`analytics-share:${share.id}`);
    const network = truncatedIp(ip);
    const here = await this.attempts.take(key, network, LOCKOUT_WINDOW_MS, LOCKOUT_ATTEMPTS);
    if (here === null) return { ok: false, locked: true };
    const everywhere = await this.attempts.take(key, ANY_NEW_NETWORK, NEW_NETWORKS_WINDOW_MS, NEW_NETWORKS_ATTEMPTS);
    if (everywhere === null) return { ok: false, locked: true };
    if (!share.passwordHash || !(await this.passwords.verify(password, share.passwordHash))) return { ok: false, locked: false };
    await this.attempts.clear(key, network);
    const expires = String(now + SHARE_COOKIE_MS);
    return { ok: true, cookie: `${expires}.${this.cookieMac(share, expires).toString('base64url')}` };
  }

  /** The link of a share (its token derived again from its id). */
  urlOf(id: string): string {
    return `${this.config.publicUrl}/share/${this.tokenOf(id)}`;
  }

  private tokenOf(id: string): string {
    return createHmac('sha256', this.tokenKey).update(id).digest('base64url');
  }

  /** Bound to the share and its password hash: another share's cookie, or one from before a new password, fails. */
  private cookieMac(share: AnalyticsShare, expires: string): Buffer {
    return createHmac('sha256', this.cookieKey)
      .update(`${share.id}\n${share.passwordHash ?? ''}\n${expires}`)
      .digest();
  }

  private toDto(share: AnalyticsShare): AnalyticsShareDto {
    return { id: share.id, name: share.name, url: this.urlOf(share.id), protected: share.passwordHash !== null, createdAt: share.createdAt.toISOString() };
  }
}

import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { Counter } from 'prom-client';
import { AnalyticsCollector, Sighting } from '../analytics/analytics-collector.js';
import { VisitorIds } from '../analytics/visitor-ids.service.js';
import { clientNetworkOf } from '../common/client-network.js';
import { AppsError, AppsErrorCode } from '../apps/apps.errors.js';
import { landingPageOf } from '../deployments/deployment-snapshot.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { Transactions } from '../database/transactions.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { emailProblem, normaliseEmail } from '../users/email.js';
import { UsersError, UsersErrorCode } from '../users/users.errors.js';
import { UsersService } from '../users/users.service.js';
import type { SiteTarget } from './sites.service.js';
import { SignupTokens, TokenProblem } from './signup-token.js';

/** Sign-ups one visitor may send to one app per minute, through any of its deployments (the form's own limit, not the API's). */
export const SIGNUPS_PER_MINUTE = 5;
const WINDOW_MS = 60_000;

/**
 * What the form answers. `thanks` may carry the sign-up itself, to run once the answer is sent
 * (`afterReply`): the answer then cannot depend on the work, so neither can its timing.
 */
export type SignupOutcome =
  { kind: 'thanks'; afterReply?: () => void } | { kind: 'invalid'; email: string; error: string } | { kind: 'throttled' } | { kind: 'not-found' };

type SpamReason = 'honeypot' | TokenProblem | 'token_other_app';

/**
 * The landing page's form: a visitor becomes a user of the app, through the same UsersService as
 * `POST /v1/users` (so `user.created` goes out, with `source: landing-page` and the deployment, in the
 * user's transaction). Spam — a filled honeypot, a missing, forged, expired (2 h) or instant token — gets
 * the same answer as a real sign-up and stores nothing; so does an e-mail already signed up: the
 * answer never tells whether an address was known — nor does its timing: a valid post is answered
 * (303) before the user is created, so a new address and a known one take the same work up to the
 * answer; the creation runs after it, and its failures are logged (without the address).
 */
@Injectable()
export class SignupService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Signup');
  private readonly spam: Counter<'reason'>;
  /** Sign-ups being created after their answer went out. */
  private readonly creating = new Set<Promise<void>>();

  constructor(
    private readonly users: UsersService,
    private readonly deployments: DeploymentsService,
    private readonly tokens: SignupTokens,
    private readonly visitors: VisitorIds,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
    private readonly analytics: AnalyticsCollector,
    private readonly db: Transactions,
    metrics: MetricsService,
  ) {
    this.spam = new Counter({
      name: 'signup_spam_dropped_total',
      help: 'Sign-up form posts dropped as spam, by reason',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
    });
  }

  async submit(target: SiteTarget, form: Record<string, unknown>, visitor: Sighting): Promise<SignupOutcome> {
    const { deployment } = target;
    if (!landingPageOf(deployment.snapshot).signup.enabled) return { kind: 'not-found' };
    if (await this.overLimit(deployment.appId, visitor.ip)) return { kind: 'throttled' };

    if (typeof form.website !== 'string' || form.website !== '') return this.dropped('honeypot');
    const token = this.tokens.read(form.token);
    if ('problem' in token) return this.dropped(token.problem);
    // Through an alias the page may have been rendered by an older deployment of the same app: it is the one signed up through.
    const rendered = token.deploymentId === deployment.id ? deployment : await this.deployments.findServable(token.deploymentId);
    if (!rendered || rendered.appId !== deployment.appId) return this.dropped('token_other_app');

    const email = typeof form.email === 'string' ? normaliseEmail(form.email) : '';
    const problem = email === '' ? 'Enter your e-mail address' : emailProblem(email) && 'Enter an e-mail address like name@example.com';
    if (problem) return { kind: 'invalid', email: typeof form.email === 'string' ? form.email.slice(0, 320) : '', error: problem };

    return { kind: 'thanks', afterReply: () => this.track(this.create(deployment.accountId, deployment.appId, email, rendered.id, visitor)) };
  }

  /** Resolves once every sign-up answered so far has been created (or failed). Tests and shutdown wait on it. */
  async settled(): Promise<void> {
    while (this.creating.size > 0) await Promise.allSettled([...this.creating]);
  }

  /** The HTTP server is about to close: sign-ups already answered are created before the database goes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }

  /** The user and the analytics sign-up in one transaction: the funnel counts each sign-up exactly once. Never throws. */
  private async create(accountId: string, appId: string, email: string, deploymentId: string, visitor: Sighting): Promise<void> {
    try {
      await this.db.run(async () => {
        await this.users.create(accountId, { appId, email }, { source: 'landing-page', deploymentId });
        await this.analytics.signup({ ...visitor, deploymentId, pathname: '/' });
      });
    } catch (err) {
      if (err instanceof UsersError && err.reason === UsersErrorCode.EmailTaken) return; // known: nothing more to do
      if (err instanceof AppsError && err.reason === AppsErrorCode.NotYours) return; // the app was deleted meanwhile
      this.logger.error(`A sign-up to app ${appId} could not be stored: ${(err as Error).message}`);
    }
  }

  private track(work: Promise<void>): void {
    this.creating.add(work);
    void work.finally(() => this.creating.delete(work));
  }

  /**
   * Counts this post against the visitor for this app — per app, not per deployment, so a visitor
   * cannot multiply the limit by the app's deployments and aliases. The visitor is a salted hash of
   * the IP (an IPv6 address by its /64): no address is kept, in the store or in Redis.
   */
  private async overLimit(appId: string, ip: string): Promise<boolean> {
    const visitor = await this.visitors.idOf(appId, clientNetworkOf(ip), '');
    const { isBlocked } = await this.counters.increment(`signup:${appId}:${visitor}`, WINDOW_MS, SIGNUPS_PER_MINUTE, WINDOW_MS, 'signup');
    return isBlocked;
  }

  private dropped(reason: SpamReason): SignupOutcome {
    this.spam.inc({ reason });
    return { kind: 'thanks' };
  }
}

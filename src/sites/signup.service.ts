import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Counter } from 'prom-client';
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
/** Sign-ups created in one transaction at most. */
const SIGNUP_BATCH = 500;
/** Sign-ups answered and waiting to be created past which a post waits for the batch being written. */
const MAX_WAITING = 5000;

/** A sign-up answered, to create. */
interface PendingSignup {
  accountId: string;
  appId: string;
  email: string;
  /** The deployment the form was rendered by. */
  deploymentId: string;
  visitor: Sighting;
}

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
 * answer; the creation runs after it, and its failures are logged (without the address). Sign-ups are
 * created in batches — whatever was answered while the last batch was written, up to SIGNUP_BATCH in
 * one transaction — so a burst of posts costs the database a few statements per batch, not a
 * transaction and a connection each.
 */
@Injectable()
export class SignupService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Signup');
  private readonly spam: Counter<'reason'>;
  /** Sign-ups answered and not yet being created, oldest first. */
  private waiting: PendingSignup[] = [];
  /** The batches being written (one at a time), while there are any. */
  private writing: Promise<void> | undefined;

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
    this.spam = metrics.counter({
      name: 'signup_spam_dropped_total',
      help: 'Sign-up form posts dropped as spam, by reason',
      labelNames: ['reason'] as const,
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

    // Past a backlog, a post waits for the batch being written (every valid post alike: its timing tells nothing).
    if (this.waiting.length >= MAX_WAITING) await this.writing;
    return {
      kind: 'thanks',
      afterReply: () => this.enqueue({ accountId: deployment.accountId, appId: deployment.appId, email, deploymentId: rendered.id, visitor }),
    };
  }

  /** Resolves once every sign-up answered so far has been created (or failed). Tests and shutdown wait on it. */
  async settled(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The HTTP server is about to close: sign-ups already answered are created before the database goes. */
  beforeApplicationShutdown(): Promise<void> {
    return this.settled();
  }

  /** Queues a sign-up answered already; one batch is written at a time, with whatever queued while the last one was. */
  private enqueue(signup: PendingSignup): void {
    this.waiting.push(signup);
    this.writing ??= this.writeWaiting().finally(() => (this.writing = undefined));
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) await this.createBatch(this.waiting.splice(0, SIGNUP_BATCH));
  }

  /**
   * The users and their analytics sign-ups in one transaction: the funnel counts each sign-up exactly
   * once. If the batch fails as a whole, each sign-up is tried on its own (one bad row costs only
   * itself). Never throws.
   */
  private async createBatch(batch: PendingSignup[]): Promise<void> {
    if (batch.length > 1) {
      try {
        await this.db.run(async () => {
          const created = await this.users.createNew(
            batch.map((s) => ({
              accountId: s.accountId,
              appId: s.appId,
              email: s.email,
              origin: { source: 'landing-page' as const, deploymentId: s.deploymentId },
            })),
          );
          await this.analytics.signups(created.map(({ index }) => ({ ...batch[index].visitor, deploymentId: batch[index].deploymentId, pathname: '/' })));
        });
        return;
      } catch (err) {
        this.logger.warn(`A batch of ${batch.length} sign-ups failed (${(err as Error).message}): creating them one by one`);
      }
    }
    for (const signup of batch) await this.create(signup);
  }

  /** One user and its analytics sign-up in one transaction. Never throws. */
  private async create({ accountId, appId, email, deploymentId, visitor }: PendingSignup): Promise<void> {
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

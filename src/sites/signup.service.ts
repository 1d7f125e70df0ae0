import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { Counter } from 'prom-client';
import { AnalyticsCollector, Sighting } from '../analytics/analytics-collector.js';
import { VisitorIds } from '../analytics/visitor-ids.service.js';
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

/** Sign-ups one visitor may send to one deployment per minute (the form's own limit, not the API's). */
export const SIGNUPS_PER_MINUTE = 5;
const WINDOW_MS = 60_000;

export type SignupOutcome = { kind: 'thanks' } | { kind: 'invalid'; email: string; error: string } | { kind: 'throttled' } | { kind: 'not-found' };

type SpamReason = 'honeypot' | TokenProblem | 'token_other_app';

/**
 * The landing page's form: a visitor becomes a user of the app, through the same UsersService as
 * `POST /v1/users` (so `user.created` goes out, with `source: landing-page` and the deployment, in the
 * user's transaction). Spam — a filled honeypot, a missing, forged, day-old or instant token — gets
 * the same answer as a real sign-up and stores nothing; so does an e-mail already signed up: the
 * answer never tells whether an address was known.
 */
@Injectable()
export class SignupService {
  private readonly spam: Counter<'reason'>;

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
    if (await this.overLimit(deployment.id, visitor.ip)) return { kind: 'throttled' };

    if (typeof form.website !== 'string' || form.website !== '') return this.dropped('honeypot');
    const token = this.tokens.read(form.token);
    if ('problem' in token) return this.dropped(token.problem);
    // Through an alias the page may have been rendered by an older deployment of the same app: it is the one signed up through.
    const rendered = token.deploymentId === deployment.id ? deployment : await this.deployments.findServable(token.deploymentId);
    if (!rendered || rendered.appId !== deployment.appId) return this.dropped('token_other_app');

    const email = typeof form.email === 'string' ? normaliseEmail(form.email) : '';
    const problem = email === '' ? 'Enter your e-mail address' : emailProblem(email) && 'Enter an e-mail address like name@example.com';
    if (problem) return { kind: 'invalid', email: typeof form.email === 'string' ? form.email.slice(0, 320) : '', error: problem };

    try {
      // The user and the analytics sign-up in one transaction: the funnel counts each sign-up exactly once.
      await this.db.run(async () => {
        await this.users.create(deployment.accountId, { appId: deployment.appId, email }, { source: 'landing-page', deploymentId: rendered.id });
        await this.analytics.signup({ ...visitor, deploymentId: rendered.id, pathname: '/' });
      });
    } catch (err) {
      if (err instanceof UsersError && err.reason === UsersErrorCode.EmailTaken) return { kind: 'thanks' }; // known: same answer
      if (err instanceof AppsError && err.reason === AppsErrorCode.NotYours) return { kind: 'not-found' }; // the app was just deleted
      throw err;
    }
    return { kind: 'thanks' };
  }

  /** Counts this post against the visitor (a salted IP hash: no address is kept) for this deployment. */
  private async overLimit(deploymentId: string, ip: string): Promise<boolean> {
    const visitor = await this.visitors.idOf(deploymentId, ip, '');
    const { isBlocked } = await this.counters.increment(`signup:${deploymentId}:${visitor}`, WINDOW_MS, SIGNUPS_PER_MINUTE, WINDOW_MS, 'signup');
    return isBlocked;
  }

  private dropped(reason: SpamReason): SignupOutcome {
    this.spam.inc({ reason });
    return { kind: 'thanks' };
  }
}

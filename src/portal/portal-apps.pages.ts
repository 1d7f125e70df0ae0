import { Injectable } from '@nestjs/common';
import { AnalyticsStatsService } from '../analytics/analytics-stats.service.js';
import { AppsService } from '../apps/apps.service.js';
import { isSlug, SLUG_MAX, SLUG_MIN } from '../apps/slug.js';
import { PlatformError } from '../common/errors/platform-error.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { DomainsService } from '../domains/domains.service.js';
import { cut, LIMITS } from '../landing-pages/landing-page.js';
import { LandingPagesService } from '../landing-pages/landing-pages.service.js';
import { PublishingService } from '../publishing/publishing.service.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { Form, PortalAnswer, portalActor, portalPrincipal, Signed, text } from './portal-page.js';
import { renderPortal } from './portal-pages.js';
import { barChart } from './svg-chart.js';

const LIST = { limit: 100 };
const BREAKDOWNS = ['page', 'source', 'device', 'deployment'] as const;

class PortalFormError extends Error {}

/** What each action did, said on the page it redirects to. */
const DONE: Record<string, string> = {
  settings: 'Settings saved.',
  page: 'Landing page saved. Deploy to serve it.',
  generated: 'The page was written by AI. Deploy to serve it.',
  'deployed-production': 'Deployed to production.',
  'deployed-staging': 'Deployed to staging.',
  published: 'Published: the public address serves the chosen deployment.',
  unpublished: 'Unpublished: the public address answers 410 until you publish again.',
  'domain-added': 'Domain added. Create the two DNS records shown below, then verify.',
  'domain-verified': 'Domain verified: it serves the published app.',
  'domain-pending': 'Not verified yet: see what the last check found below. Pending domains are checked again every minute for an hour, then hourly.',
  'domain-deleted': 'Domain deleted: it no longer serves the app.',
};

/** /portal/apps…: the same services as /v1/apps, deployments, landing pages and publishing. */
@Injectable()
export class PortalAppsPages {
  constructor(
    private readonly apps: AppsService,
    private readonly deployments: DeploymentsService,
    private readonly landingPages: LandingPagesService,
    private readonly publishing: PublishingService,
    private readonly domains: DomainsService,
    private readonly stats: AnalyticsStatsService,
    private readonly limiter: RateLimiter,
  ) {}

  /** `rest`: the path after `apps` (`''` or `/<appId>`); `done`: what the last action did (from its redirect). */
  async get(signed: Signed, rest: string, notes: { done?: string; error?: string; status?: number } = {}): Promise<PortalAnswer> {
    if (rest === '') return renderPortal('apps', { csrf: signed.csrf, apps: (await this.apps.list(signed.accountId, LIST)).data });
    const [appId, sub] = rest.slice(1).split('/');
    if (sub === 'analytics') return this.analyticsPage(signed, appId);
    const app = await this.apps.get(signed.accountId, appId);
    const [page, deployments, domains] = await Promise.all([
      this.landingPages.get(signed.accountId, appId),
      this.deployments.listForApp(signed.accountId, appId, LIST),
      this.domains.list(signed.accountId, appId, LIST),
    ]);
    const message = notes.done ? DONE[notes.done] : undefined;
    return renderPortal(
      'app',
      // A check that did not verify is news, not success: said in the warning colour.
      {
        csrf: signed.csrf,
        app,
        page,
        deployments: deployments.data,
        domains: domains.data,
        message,
        warning: notes.done === 'domain-pending',
        error: notes.error,
      },
      notes.status ?? (notes.error ? 400 : 200),
    );
  }

  /** 30 days of the app's analytics: totals, daily charts and the main breakdowns, through the stats API's service. */
  private async analyticsPage(signed: Signed, appId: string): Promise<PortalAnswer> {
    const app = await this.apps.get(signed.accountId, appId);
    const metrics = 'visitors,visits,pageviews,bounceRate,visitDuration,signups,conversionRate';
    const [aggregate, series, ...breakdowns] = await Promise.all([
      this.stats.aggregate(signed.accountId, appId, { period: '30d', metrics }),
      this.stats.timeseries(signed.accountId, appId, { period: '30d', interval: 'day', metrics: 'visitors,signups' }),
      ...BREAKDOWNS.map((property) =>
        this.stats.breakdown(signed.accountId, appId, { period: '30d', property, metrics: 'visitors,pageviews,signups', limit: 10 }),
      ),
    ]);
    const points = (metric: 'visitors' | 'signups') => series.results.map((r) => ({ label: String(r.date), value: Number(r[metric] ?? 0) }));
    return renderPortal('analytics', {
      csrf: signed.csrf,
      app,
      totals: Object.fromEntries(Object.entries(aggregate.results).map(([k, v]) => [k, v.value])),
      visitorsChart: barChart('Visitors per day', points('visitors')),
      signupsChart: barChart('Sign-ups per day', points('signups')),
      breakdowns: BREAKDOWNS.map((property, i) => ({ property, rows: breakdowns[i].data })),
    });
  }

  async post(signed: Signed, rest: string, form: Form, signal: AbortSignal): Promise<PortalAnswer> {
    if (rest === '') {
      const created = await this.apps.create(signed.accountId, {
        name: text(form, 'name', 100) || 'Untitled app',
        description: text(form, 'description', 1000) || null,
      });
      return { redirect: `/portal/apps/${created.appId}` };
    }
    const [, appId, action = ''] = /^\/([^/]+)(?:\/(.+))?$/.exec(rest) ?? [];
    if (!appId) return { redirect: '/portal/apps' };
    try {
      // Post/redirect/get: reloading the page does not deploy (or publish…) again.
      return { redirect: `/portal/apps/${appId}?done=${await this.act(signed, appId, action, form, signal)}` };
    } catch (err) {
      // Refused (a taken slug, a quota, a rate limit, no AI provider…): the page again, saying why, with the API's status.
      if (err instanceof PlatformError && err.status !== 404) return this.refused(signed, appId, err);
      if (err instanceof PortalFormError) return this.get(signed, `/${appId}`, { error: err.message });
      throw err;
    }
  }

  private async refused(signed: Signed, appId: string, err: PlatformError): Promise<PortalAnswer> {
    const page = await this.get(signed, `/${appId}`, { error: err.message, status: err.status });
    const retryAfter = err.extras.headers?.['retry-after'];
    return retryAfter && !('redirect' in page) ? { ...page, headers: { 'retry-after': retryAfter } } : page;
  }

  private async act(signed: Signed, appId: string, action: string, form: Form, signal: AbortSignal): Promise<string> {
    switch (action) {
      case '':
        if (!isSlug(text(form, 'slug', 100)))
          return Promise.reject(new PortalFormError(`The slug must be ${SLUG_MIN}–${SLUG_MAX} of a-z, 0-9 and -, not starting or ending with -.`));
        await this.apps.update(signed.accountId, appId, {
          name: text(form, 'name', 100),
          description: text(form, 'description', 1000) || null,
          slug: text(form, 'slug', 40),
          visibility: form.visibility === 'public' ? 'public' : 'unlisted',
        });
        return 'settings';
      case 'landing-page': {
        const current = await this.landingPages.get(signed.accountId, appId);
        const hero = {
          ...current.page.hero,
          headline: cut(text(form, 'headline', 1000) || current.page.hero.headline, LIMITS.hero.headline[1]),
          subheadline: cut(text(form, 'subheadline', 1000), LIMITS.hero.subheadline[1]),
        };
        await this.landingPages.put(signed.accountId, appId, { ...current.page, hero });
        return 'page';
      }
      case 'generate':
        // The API counts this in the account's AI rate limit (its guard); the portal has no guard, so it counts here.
        await this.limiter.consumeAccount(signed.accountId, 'ai');
        await this.landingPages.generate(portalPrincipal(signed), appId, { prompt: text(form, 'prompt', 2000) || undefined }, signal);
        return 'generated';
      case 'deploy': {
        const env = form.env === 'staging' ? 'staging' : 'production';
        await this.deployments.deploy(signed.accountId, { appId, env });
        return `deployed-${env}`;
      }
      case 'publish': {
        await this.publishing.publish(signed.accountId, appId, text(form, 'deploymentId', 40) || undefined);
        return 'published';
      }
      case 'unpublish':
        await this.publishing.unpublish(signed.accountId, appId);
        return 'unpublished';
      case 'domains':
        await this.domains.create(signed.accountId, portalActor(signed), appId, { hostname: text(form, 'hostname', 300) });
        return 'domain-added';
      default:
        return this.domainAction(signed, action);
    }
  }

  /** `domains/<id>/verify` and `domains/<id>/delete`. */
  private async domainAction(signed: Signed, action: string): Promise<string> {
    const [, id, verb] = /^domains\/([^/]+)\/(verify|delete)$/.exec(action) ?? [];
    if (!id) return 'nothing';
    if (verb === 'delete') {
      await this.domains.delete(signed.accountId, portalActor(signed), id);
      return 'domain-deleted';
    }
    return (await this.domains.verify(signed.accountId, portalActor(signed), id)).status === 'verified' ? 'domain-verified' : 'domain-pending';
  }
}

import { Injectable } from '@nestjs/common';
import { PickType } from '@nestjs/swagger';
import { AnalyticsStatsService } from '../analytics/analytics-stats.service.js';
import { AppsService } from '../apps/apps.service.js';
import { CreateAppDto, UpdateAppDto } from '../apps/dto/create-app.dto.js';
import { PlatformError } from '../common/errors/platform-error.js';
import { AppConfig } from '../config/app-config.js';
import { DeployDto } from '../deployments/dto/deploy.dto.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { CreateDomainDto } from '../domains/dto/domain.dto.js';
import { DomainsService } from '../domains/domains.service.js';
import { GenerateLandingPageDto } from '../landing-pages/dto/landing-page.dto.js';
import { LandingPagesService } from '../landing-pages/landing-pages.service.js';
import { PublishDto } from '../publishing/dto/publish.dto.js';
import { StartSplitDto } from '../publishing/dto/split.dto.js';
import { PublishingService } from '../publishing/publishing.service.js';
import { SplitError } from '../publishing/split.errors.js';
import { SplitService } from '../publishing/split.service.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { ago, count, size } from './portal-format.js';
import { FieldErrors, validateForm } from './portal-forms.js';
import { chrome, Form, PortalAnswer, portalActor, portalPrincipal, Signed, text } from './portal-page.js';
import { PortalHtml, renderPortal } from './portal-pages.js';

const LIST = { limit: 100 };

/** The environment of POST /v1/apps/deploy, as the API checks it. */
class DeployEnvDto extends PickType(DeployDto, ['env'] as const) {}

/** What each action did, said on the page it redirects to. */
const DONE: Record<string, string> = {
  settings: 'Settings saved.',
  page: 'Landing page saved. Deploy to serve it.',
  generated: 'The page was written by AI. Deploy to serve it.',
  'deployed-production': 'Deployed to production.',
  'deployed-staging': 'Deployed to staging.',
  'deployed-other': 'Deployed: see the environments below.',
  published: 'Published: the public address serves the chosen deployment.',
  unpublished: 'Unpublished: the public address answers 410 until you publish again.',
  'domain-added': 'Domain added. Create the two DNS records shown below, then verify.',
  'domain-verified': 'Domain verified: it serves the published app.',
  'domain-pending': 'Not verified yet: see what the last check found below. Pending domains are checked again every minute for an hour, then hourly.',
  'domain-deleted': 'Domain deleted: it no longer serves the app.',
  'split-started': 'Split test started: each visitor now sees one of the chosen deployments, by weight, all day.',
  'split-ended': 'Split test ended: the published deployment serves everyone again.',
};

/** The weight field of a deployment's row in the split form. */
const WEIGHT = 'weight-';

/** What a page says besides its content: the last action's outcome, or why a form was refused (with what was typed). */
export interface PageNotes {
  done?: string;
  error?: string;
  errors?: FieldErrors;
  input?: Form;
  status?: number;
}

/** /portal/apps…: the same services and DTOs as /v1/apps, deployments, publishing and domains. */
@Injectable()
export class PortalAppsPages {
  constructor(
    private readonly apps: AppsService,
    private readonly deployments: DeploymentsService,
    private readonly landingPages: LandingPagesService,
    private readonly publishing: PublishingService,
    private readonly domains: DomainsService,
    private readonly splits: SplitService,
    private readonly stats: AnalyticsStatsService,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  async list(signed: Signed, notes: PageNotes = {}): Promise<PortalHtml> {
    const apps = (await this.apps.list(signed.accountId, LIST)).data;
    return renderPortal(
      'apps',
      { ...chrome(signed), apps, publicUrl: this.config.publicUrl, errors: notes.errors, input: notes.input },
      notes.status ?? (notes.errors ? 400 : 200),
    );
  }

  /** Through POST /v1/apps's DTO: a name or description it refuses is said next to the field, the form keeping what was typed. */
  async create(signed: Signed, form: Form): Promise<PortalAnswer> {
    const checked = await validateForm(CreateAppDto, { name: text(form, 'name'), description: text(form, 'description') || undefined });
    if (!checked.ok) return this.list(signed, { errors: checked.errors, input: form });
    const created = await this.apps.create(signed.accountId, checked.value);
    return { redirect: `/portal/apps/${created.appId}` };
  }

  /** The app: publishing, deployments with their results, environments, custom domains, settings. */
  async appPage(signed: Signed, appId: string, notes: PageNotes = {}): Promise<PortalHtml> {
    const app = await this.apps.get(signed.accountId, appId);
    const [page, deployments, domains, results, split] = await Promise.all([
      this.landingPages.get(signed.accountId, appId),
      this.deployments.listForApp(signed.accountId, appId, LIST),
      this.domains.list(signed.accountId, appId, LIST),
      this.stats.breakdown(signed.accountId, appId, { period: '30d', property: 'deployment', metrics: 'visitors,signups,conversionRate', limit: 100 }),
      this.splits.get(signed.accountId, appId).catch((err: unknown) => {
        if (err instanceof SplitError) return null; // none running
        throw err;
      }),
    ]);
    const byDeployment = new Map(results.data.map((r) => [String(r.deployment), r]));
    const now = Date.now();
    const rows = deployments.data.map((d) => {
      const result = byDeployment.get(d.deploymentId);
      return {
        ...d,
        ago: ago(d.createdAt, now),
        at: `${d.createdAt.slice(0, 16).replace('T', ' ')} UTC`,
        size: d.files ? size(d.files.bytes) : '—',
        fileCount: d.files ? count(d.files.count) : 'page only',
        visitors: count(Number(result?.visitors ?? 0)),
        signupRate: result && Number(result.visitors) > 0 ? `${Number(result.conversionRate).toFixed(1)} %` : '—',
        signups: count(Number(result?.signups ?? 0)),
      };
    });
    // Each environment's newest deployment (the list is newest first).
    const environments = new Map<string, (typeof rows)[number]>();
    for (const d of rows) if (!environments.has(d.env)) environments.set(d.env, d);
    const envNames = [...new Set(['production', 'staging', ...rows.map((d) => d.env)])];
    const message = notes.done ? DONE[notes.done] : undefined;
    return renderPortal(
      'app',
      // A check that did not verify is news, not success: said in the warning colour.
      {
        ...chrome(signed),
        app,
        page,
        deployments: rows,
        environments: [...environments.values()],
        envNames,
        domains: domains.data,
        split: split && {
          ...split,
          variants: split.variants.map((v) => ({
            ...v,
            visitors: count(v.visitors),
            signups: count(v.signups),
            conversion: `${v.conversionRate.toFixed(1)} %`,
            chance: v.chanceToBeatFirst === null ? '—' : `${Math.round(v.chanceToBeatFirst * 100)} %`,
          })),
        },
        message,
        warning: notes.done === 'domain-pending',
        error: notes.error,
        errors: notes.errors,
        input: notes.input,
      },
      notes.status ?? (notes.error || notes.errors ? 400 : 200),
    );
  }

  /**
   * Runs an action of the app page, then post/redirect/get (reloading the page does not deploy, or
   * publish, again); refused by the API (a taken slug, a quota, a rate limit, no AI provider…): the
   * page again, saying why, with the API's status.
   */
  async perform(signed: Signed, appId: string, action: () => Promise<string | PageNotes>): Promise<PortalAnswer> {
    try {
      const outcome = await action();
      if (typeof outcome !== 'string') return this.appPage(signed, appId, outcome);
      return { redirect: `/portal/apps/${appId}?done=${outcome}` };
    } catch (err) {
      if (!(err instanceof PlatformError) || err.status === 404) throw err;
      const page = await this.appPage(signed, appId, { error: err.message, status: err.status });
      const retryAfter = err.extras.headers?.['retry-after'];
      return retryAfter ? { ...page, headers: { 'retry-after': retryAfter } } : page;
    }
  }

  /** Through PATCH /v1/apps/:appId's DTO (every field of the form). */
  async saveSettings(signed: Signed, appId: string, form: Form): Promise<string | PageNotes> {
    const checked = await validateForm(UpdateAppDto, {
      name: text(form, 'name'),
      description: text(form, 'description') || null,
      slug: text(form, 'slug'),
      visibility: form.visibility === 'public' ? 'public' : 'unlisted',
    });
    if (!checked.ok) return { errors: checked.errors, input: form };
    await this.apps.update(signed.accountId, appId, checked.value);
    return 'settings';
  }

  /** The whole page written by AI (the editor writes one section at a time); counted in the account's AI rate limit like the API's route. */
  async generate(signed: Signed, appId: string, form: Form, signal: AbortSignal): Promise<string | PageNotes> {
    const checked = await validateForm(GenerateLandingPageDto, { prompt: text(form, 'prompt') || undefined });
    if (!checked.ok) return { errors: checked.errors, input: form };
    await this.limiter.consumeAccount(signed.accountId, 'ai');
    await this.landingPages.generate(portalPrincipal(signed), appId, checked.value, signal);
    return 'generated';
  }

  async deploy(signed: Signed, appId: string, form: Form): Promise<string | PageNotes> {
    const checked = await validateForm(DeployEnvDto, { env: text(form, 'env') || 'production' });
    if (!checked.ok) return { errors: checked.errors, input: form };
    await this.deployments.deploy(signed.accountId, { appId, env: checked.value.env });
    return DONE[`deployed-${checked.value.env}`] ? `deployed-${checked.value.env}` : 'deployed-other';
  }

  async publish(signed: Signed, appId: string, form: Form): Promise<string | PageNotes> {
    const checked = await validateForm(PublishDto, { deploymentId: text(form, 'deploymentId') || undefined });
    if (!checked.ok) return { error: Object.values(checked.errors).join('; ') };
    await this.publishing.publish(signed.accountId, portalActor(signed), appId, checked.value.deploymentId);
    return 'published';
  }

  /**
   * Through PUT /v1/apps/:appId/split's DTO: the deployments given a weight on the deployments list, the published one
   * first (the others are compared with it), then in the list's order.
   */
  async startSplit(signed: Signed, appId: string, form: Form): Promise<string | PageNotes> {
    const app = await this.apps.get(signed.accountId, appId);
    const weighted = Object.keys(form)
      .filter((name) => name.startsWith(WEIGHT) && text(form, name) !== '')
      .map((name) => ({ deploymentId: name.slice(WEIGHT.length), weight: Number(text(form, name)) }))
      .sort((a, b) => Number(b.deploymentId === app.publishedDeploymentId) - Number(a.deploymentId === app.publishedDeploymentId));
    const checked = await validateForm(StartSplitDto, { variants: weighted });
    if (!checked.ok) return { error: `Give 2 to 4 production deployments a weight from 1 to 99: ${Object.values(checked.errors).join('; ')}`, input: form };
    try {
      await this.splits.start(signed.accountId, portalActor(signed), appId, checked.value);
    } catch (err) {
      // Weights not summing to 100, a deployment not of production: said on the page, the weights kept as typed.
      if (err instanceof PlatformError && err.status === 400) return { error: err.message, input: form };
      throw err;
    }
    return 'split-started';
  }

  async endSplit(signed: Signed, appId: string): Promise<string> {
    await this.splits.end(signed.accountId, portalActor(signed), appId);
    return 'split-ended';
  }

  async unpublish(signed: Signed, appId: string): Promise<string> {
    await this.publishing.unpublish(signed.accountId, portalActor(signed), appId);
    return 'unpublished';
  }

  async addDomain(signed: Signed, appId: string, form: Form): Promise<string | PageNotes> {
    const checked = await validateForm(CreateDomainDto, { hostname: text(form, 'hostname') });
    if (!checked.ok) return { errors: checked.errors, input: form };
    await this.domains.create(signed.accountId, portalActor(signed), appId, checked.value);
    return 'domain-added';
  }

  async verifyDomain(signed: Signed, domainId: string): Promise<string> {
    return (await this.domains.verify(signed.accountId, portalActor(signed), domainId)).status === 'verified' ? 'domain-verified' : 'domain-pending';
  }

  async deleteDomain(signed: Signed, domainId: string): Promise<string> {
    await this.domains.delete(signed.accountId, portalActor(signed), domainId);
    return 'domain-deleted';
  }
}

import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { PlatformError } from '../common/errors/platform-error.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { LandingPageDto } from '../landing-pages/dto/landing-page.dto.js';
import { ACCENT_PATTERN, DEFAULT_ACCENT, LandingPage, LandingPageSection, LIMITS, SECTIONS } from '../landing-pages/landing-page.js';
import { LandingPagesService } from '../landing-pages/landing-pages.service.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { renderLandingPage, SITE_CONTENT_SECURITY_POLICY } from '../sites/site-page.js';
import { FieldErrors, validateForm } from './portal-forms.js';
import { chrome, Form, PortalAnswer, portalPrincipal, Signed, text } from './portal-page.js';
import { PortalHtml, renderPortal } from './portal-pages.js';

/** The lists of the page an editor adds to, removes from and reorders, with their limits and an empty item. */
const LISTS = {
  features: { max: LIMITS.features, fields: ['title', 'body'], noun: 'feature' },
  faq: { max: LIMITS.faqs, fields: ['question', 'answer'], noun: 'question' },
} as const;
type ListName = keyof typeof LISTS;

const DONE: Record<string, string> = {
  saved: 'Saved. Deploy to serve it.',
  'generated-hero': 'The hero was written by AI and saved. Deploy to serve it.',
  'generated-features': 'The features were written by AI and saved. Deploy to serve it.',
  'generated-faq': 'The questions were written by AI and saved. Deploy to serve it.',
  'generated-cta': 'The call to action was written by AI and saved. Deploy to serve it.',
};

/** A preview is the deployed page's own document, framed by the editor only. */
export const PREVIEW_CONTENT_SECURITY_POLICY = SITE_CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", "frame-ancestors 'self'");

interface EditorState {
  page: LandingPage;
  errors?: FieldErrors;
  message?: string;
  error?: string;
  unsaved?: boolean;
  env?: string;
  prompt?: string;
  status?: number;
  headers?: Record<string, string>;
}

/**
 * /portal/apps/:appId/editor: every field of the landing page (the API's LandingPageDto checks it, its
 * messages shown next to the fields), features and questions added, removed and reordered by buttons
 * that post the form (no script needed), AI per section, a preview rendered by the deployed page's
 * own renderer, and deploy.
 */
@Injectable()
export class PortalEditorPages {
  constructor(
    private readonly apps: AppsService,
    private readonly landingPages: LandingPagesService,
    private readonly deployments: DeploymentsService,
    private readonly limiter: RateLimiter,
  ) {}

  async editor(signed: Signed, appId: string, done?: string): Promise<PortalHtml> {
    const saved = await this.landingPages.get(signed.accountId, appId);
    const message = done?.startsWith('deployed-') ? `Saved and deployed to ${done.slice('deployed-'.length)}.` : done ? DONE[done] : undefined;
    return this.render(signed, appId, { page: saved.page, message, env: done?.startsWith('deployed-') ? done.slice('deployed-'.length) : undefined });
  }

  /** A button of the editor's form: save, deploy, generate a section, or change a list (then the form again, unsaved). */
  async act(signed: Signed, appId: string, form: Form, signal: AbortSignal): Promise<PortalAnswer> {
    const page = pageFromForm(form);
    const env = text(form, 'env') || 'production';
    const prompt = text(form, 'prompt');
    const action = typeof form._action === 'string' ? form._action : 'save';
    const [verb, list, at] = action.split(':');
    if (verb === 'add' || verb === 'remove' || verb === 'up' || verb === 'down') {
      if (!(list in LISTS)) return this.render(signed, appId, { page, env, prompt, error: 'There is no such list.', status: 400 });
      const error = changeList(page, list as ListName, verb, Number(at));
      return this.render(signed, appId, { page, env, prompt, error, unsaved: true, status: error ? 400 : 200 });
    }
    const checked = await validateForm(LandingPageDto, page);
    if (!checked.ok) {
      return this.render(signed, appId, {
        page,
        env,
        prompt,
        errors: checked.errors,
        error: 'The page was not saved: see the fields marked below.',
        status: 400,
      });
    }
    try {
      await this.landingPages.put(signed.accountId, appId, checked.value);
      if (verb === 'deploy') {
        await this.deployments.deploy(signed.accountId, { appId, env });
        return { redirect: `/portal/apps/${appId}/editor?done=deployed-${encodeURIComponent(env)}` };
      }
      if (verb === 'generate' && (SECTIONS as readonly string[]).includes(list)) {
        // Counted in the account's AI rate limit, like POST /v1/apps/:appId/landing-page/generate (the AI quota is the service's).
        await this.limiter.consumeAccount(signed.accountId, 'ai');
        await this.landingPages.generate(portalPrincipal(signed), appId, { prompt: prompt || undefined, sections: [list as LandingPageSection] }, signal);
        return { redirect: `/portal/apps/${appId}/editor?done=generated-${list}` };
      }
      return { redirect: `/portal/apps/${appId}/editor?done=saved` };
    } catch (err) {
      // Refused by the API (a quota, the AI rate limit, no AI provider, a bad environment…): the form again as typed, saying why.
      if (!(err instanceof PlatformError) || err.status === 404) throw err;
      const retryAfter = err.extras.headers?.['retry-after'];
      return this.render(signed, appId, {
        page,
        env,
        prompt,
        error: err.message,
        status: err.status,
        headers: retryAfter ? { 'retry-after': retryAfter } : undefined,
      });
    }
  }

  /** The page as a deploy would serve it (the sites' renderer): the saved one, or the form as typed (unsaved). */
  async preview(signed: Signed, appId: string, form?: Form): Promise<PortalHtml> {
    const app = await this.apps.get(signed.accountId, appId);
    const page = form ? pageFromForm(form) : (await this.landingPages.get(signed.accountId, appId)).page;
    const env = (form && text(form, 'env')) || 'production';
    const html = renderLandingPage({
      page: { ...page, theme: { accent: ACCENT_PATTERN.test(page.theme.accent) ? page.theme.accent.toUpperCase() : DEFAULT_ACCENT } },
      appName: app.name,
      env,
      deployedAt: new Date(),
      indexable: false,
      // A preview takes no sign-ups: its form posts back to the preview, which answers the page again.
      form: { action: `/portal/apps/${appId}/editor/preview`, token: 'preview' },
    });
    return {
      status: 200,
      html,
      headers: { 'content-security-policy': PREVIEW_CONTENT_SECURITY_POLICY, 'cache-control': 'no-store' },
    };
  }

  private async render(signed: Signed, appId: string, state: EditorState): Promise<PortalHtml> {
    const [app, saved, deployments] = await Promise.all([
      this.apps.get(signed.accountId, appId),
      this.landingPages.get(signed.accountId, appId),
      this.deployments.listForApp(signed.accountId, appId, { limit: 20 }),
    ]);
    const latest = deployments.data[0];
    const envNames = [...new Set(['production', 'staging', ...deployments.data.map((d) => d.env), ...(state.env ? [state.env] : [])])];
    const page = renderPortal(
      'editor',
      {
        ...chrome(signed),
        app,
        source: saved.source,
        updatedAt: saved.updatedAt,
        page: state.page,
        errors: state.errors ?? {},
        message: state.message,
        error: state.error,
        unsaved: state.unsaved,
        env: state.env ?? latest?.env ?? 'production',
        envNames,
        prompt: state.prompt ?? '',
        latest,
        limits: LIMITS,
        lists: LISTS,
      },
      state.status ?? 200,
    );
    return state.headers ? { ...page, headers: state.headers } : page;
  }
}

/** The page typed into the editor's form (fields named by their path: `hero.headline`, `features.0.title`), unchecked. */
export function pageFromForm(form: Form): LandingPage {
  const value = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).replace(/\r\n?/g, '\n') : '');
  const items = <K extends string>(list: ListName, fields: readonly K[]) => {
    const indexes = new Set<number>();
    const pattern = new RegExp(`^${list}\\.(\\d{1,3})\\.`);
    for (const name of Object.keys(form)) {
      const match = pattern.exec(name);
      if (match) indexes.add(Number(match[1]));
    }
    return [...indexes].sort((a, b) => a - b).map((i) => Object.fromEntries(fields.map((f) => [f, value(`${list}.${i}.${f}`)])) as Record<K, string>);
  };
  return {
    schemaVersion: 1,
    hero: { headline: value('hero.headline'), subheadline: value('hero.subheadline'), ctaLabel: value('hero.ctaLabel') },
    features: items('features', LISTS.features.fields),
    faq: items('faq', LISTS.faq.fields),
    cta: { headline: value('cta.headline') },
    signup: {
      enabled: form['signup.enabled'] === 'on',
      buttonLabel: value('signup.buttonLabel'),
      consentText: value('signup.consentText'),
      successMessage: value('signup.successMessage'),
    },
    theme: { accent: value('theme.accent') },
  };
}

/** Adds an empty item, removes one or moves it up or down (in place); a reason when it cannot. */
export function changeList(page: LandingPage, list: ListName, verb: 'add' | 'remove' | 'up' | 'down', at: number): string | undefined {
  const items = page[list] as Array<Record<string, string>>;
  const { max, fields, noun } = LISTS[list];
  if (verb === 'add') {
    if (items.length >= max) return `A page has at most ${max} ${list === 'faq' ? 'questions' : 'features'}.`;
    items.push(Object.fromEntries(fields.map((f) => [f, ''])));
    return undefined;
  }
  if (!Number.isInteger(at) || at < 0 || at >= items.length) return `There is no ${noun} ${at + 1}.`;
  if (verb === 'remove') items.splice(at, 1);
  const to = verb === 'up' ? at - 1 : verb === 'down' ? at + 1 : -1;
  if (verb !== 'remove' && to >= 0 && to < items.length) [items[at], items[to]] = [items[to], items[at]];
  return undefined;
}

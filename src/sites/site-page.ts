import { Eta } from 'eta';
import { fileURLToPath } from 'node:url';
import type { LandingPage } from '../landing-pages/landing-page.js';

/** No scripts, nothing from another origin, forms post only here (the contract's policy). */
export const SITE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// Templates beside this file (copied next to the compiled one by the build); every `<%= %>` is HTML-escaped.
const eta = new Eta({ views: fileURLToPath(new URL('./views/', import.meta.url)), autoEscape: true, cache: true });

export interface SignupFormState {
  /** Where the form posts (relative to the page). */
  action: string;
  /** The signed render-time token (see signup-token.ts). */
  token: string;
  /** What the visitor typed, shown again next to an error. */
  email?: string;
  error?: string;
}

export interface LandingPageView {
  page: LandingPage;
  appName: string;
  env: string;
  deployedAt: Date;
  form: SignupFormState;
  /** Search engines may index only the public address of a published app. */
  indexable: boolean;
}

/** The served page: hero, features, FAQ, call to action and the sign-up form, readable without any script. */
export function renderLandingPage(view: LandingPageView): string {
  const { page } = view;
  return eta.render('./landing', {
    title: page.hero.headline === view.appName ? view.appName : `${view.appName} — ${page.hero.headline}`,
    description: page.hero.subheadline,
    robots: view.indexable ? 'index, follow' : 'noindex',
    theme: themeOf(page.theme.accent),
    page,
    appName: view.appName,
    envLabel: view.env === 'production' ? '' : view.env,
    deployedAt: view.deployedAt.toISOString(),
    deployedDay: view.deployedAt.toISOString().slice(0, 10),
    form: { email: '', error: '', ...view.form },
  });
}

export interface NoticeView {
  title: string;
  heading: string;
  text: string;
  accent?: string;
  back?: { href: string; label: string };
}

/** A one-message page: the thanks after a sign-up, or an error a visitor can read (429, 404, 410). */
export function renderNotice(view: NoticeView): string {
  return eta.render('./notice', { ...view, description: '', robots: 'noindex', theme: themeOf(view.accent ?? '#5146E5') });
}

/** The accent and the text colour that reads best on it (black or white, by WCAG contrast). */
export function themeOf(accent: string): { accent: string; onAccent: string } {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(accent.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const onWhite = 1.05 / (luminance + 0.05);
  const onBlack = (luminance + 0.05) / 0.05;
  return { accent, onAccent: onWhite >= onBlack ? '#FFFFFF' : '#111111' };
}

export interface CatalogView {
  apps: Array<{ name: string; description: string | null; publicUrl: string; publishedAt: string }>;
  /** The next page's address, if there is one. */
  next: string | null;
}

/** The catalogue of published public apps, as a page. */
export function renderCatalog(view: CatalogView): string {
  return eta.render('./catalog', { ...view, title: 'App catalogue', description: 'Apps published here', robots: 'index, follow', theme: themeOf('#5146E5') });
}

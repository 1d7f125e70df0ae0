import { Eta } from 'eta';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const VIEWS = fileURLToPath(new URL('./views/', import.meta.url));
// Every `<%= %>` is HTML-escaped; templates are read once.
const eta = new Eta({ views: VIEWS, autoEscape: true, cache: true });

/** Scripts, styles, images and frames (the editor's preview) from here only (htmx, no eval, no inline script), forms post only here. */
export const PORTAL_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; frame-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export const PORTAL_CSS = readFileSync(`${VIEWS}portal.css`, 'utf8');
/** htmx, served from this origin (no third-party assets): with JavaScript on, links and forms swap the page's body instead of reloading it. */
export const HTMX_JS = readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'), 'utf8');

export interface PortalHtml {
  status: number;
  html: string;
  /** Beside the portal's own (a 429's Retry-After). */
  headers?: Record<string, string>;
}

export type PortalView =
  | 'login'
  | 'invite'
  | 'join'
  | 'members'
  | 'audit-log'
  | 'mfa'
  | 'mfa-enrol'
  | 'mfa-codes'
  | 'login-code'
  | 'overview'
  | 'api-keys'
  | 'notice'
  | 'apps'
  | 'app'
  | 'deployment'
  | 'deployment-logs'
  | 'editor'
  | 'analytics'
  | 'webhooks'
  | 'webhook'
  | 'users'
  | 'service-accounts'
  | 'events'
  | 'billing'
  | 'sso'
  | 'sso-settings';

export function renderPortal(view: PortalView, data: Record<string, unknown>, status = 200): PortalHtml {
  return { status, html: eta.render(`./${view}`, data) };
}

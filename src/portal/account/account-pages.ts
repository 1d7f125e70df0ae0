import { Eta } from 'eta';
import { fileURLToPath } from 'node:url';
import type { PortalHtml } from '../portal-pages.js';

// Rooted at src/portal/ so that these views share the portal's layout (`../../views/layout`) and notice page.
const eta = new Eta({ views: fileURLToPath(new URL('../', import.meta.url)), autoEscape: true, cache: true });

export type AccountView = 'account' | 'forgot-password' | 'reset-password' | 'confirm-password' | 'unlock' | 'notice';

/** A page of the account views (./views/), or the portal's notice page; every `<%= %>` is HTML-escaped. */
export function renderAccountPage(view: AccountView, data: Record<string, unknown>, status = 200): PortalHtml {
  return { status, html: eta.render(view === 'notice' ? './views/notice' : `./account/views/${view}`, { errors: {}, ...data }) };
}

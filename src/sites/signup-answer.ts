import type { SiteHtml, SitePages } from './site-pages.js';
import type { SiteTarget } from './sites.service.js';
import type { SignupOutcome } from './signup.service.js';
import { SitesError } from './sites.errors.js';

/**
 * What a sign-up post is answered with: where to go next (the thanks page, 303) or a page. After an
 * invalid e-mail, a landing page shows itself again with the message next to the field; a site with
 * its own pages (`ownPages`) gets a page saying what to fix, with a way back.
 */
export function signupAnswer(
  outcome: Exclude<SignupOutcome, { kind: 'not-found' }>,
  target: SiteTarget,
  pages: SitePages,
  ownPages = false,
): SiteHtml | string {
  switch (outcome.kind) {
    case 'thanks':
      return `${target.basePath}thanks`;
    case 'invalid':
      return ownPages
        ? pages.notice(400, {
            title: 'Sign up',
            heading: outcome.error,
            text: 'Go back and try again.',
            back: { href: target.basePath, label: 'Back to the page' },
          })
        : pages.page(target, { email: outcome.email, error: outcome.error });
    case 'throttled':
      return pages.notice(429, {
        title: 'Too many sign-ups',
        heading: 'Slow down a little',
        text: 'Too many sign-ups came from your connection in the last minute. Try again in a minute.',
        back: { href: target.basePath, label: 'Back to the page' },
      });
  }
}

/** `signupAnswer`, or the not-found error for a form that is turned off. */
export function signupAnswerOrNotFound(outcome: SignupOutcome, target: SiteTarget, pages: SitePages, ownPages = false): SiteHtml | string {
  if (outcome.kind === 'not-found') throw SitesError.pageNotFound();
  return signupAnswer(outcome, target, pages, ownPages);
}

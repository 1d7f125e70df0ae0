/**
 * The landing page of an app: a versioned JSON document (stored in landing_pages, snapshotted by
 * every deploy, rendered by src/sites). Plain text only: markup typed into a field stays text and
 * is escaped when rendered.
 */
export interface LandingPage {
  schemaVersion: 1;
  hero: { headline: string; subheadline: string; ctaLabel: string };
  features: Array<{ title: string; body: string }>;
  faq: Array<{ question: string; answer: string }>;
  cta: { headline: string };
  signup: { enabled: boolean; buttonLabel: string; consentText: string; successMessage: string };
  theme: { accent: string };
}

/** Length limits of every text field, [min, max] in characters, and of the lists. The one table the DTOs, the generator and the docs use. */
export const LIMITS = {
  hero: { headline: [1, 120], subheadline: [0, 300], ctaLabel: [1, 40] },
  feature: { title: [1, 80], body: [1, 400] },
  faq: { question: [1, 200], answer: [1, 1000] },
  cta: { headline: [0, 120] },
  signup: { buttonLabel: [1, 40], consentText: [0, 300], successMessage: [1, 200] },
  features: 6,
  faqs: 10,
} as const;

export const ACCENT_PATTERN = /^#[0-9a-fA-F]{6}$/;
export const DEFAULT_ACCENT = '#5146E5';

export type LandingPageSection = 'hero' | 'features' | 'faq' | 'cta';
export const SECTIONS: readonly LandingPageSection[] = ['hero', 'features', 'faq', 'cta'];

/** What an app that never had a page shows: its own name and description, and a working sign-up form. */
export function defaultLandingPage(app: { name: string; description: string | null }): LandingPage {
  return {
    schemaVersion: 1,
    hero: {
      headline: cut(app.name, LIMITS.hero.headline[1]),
      subheadline: cut(app.description ?? '', LIMITS.hero.subheadline[1]),
      ctaLabel: 'Get early access',
    },
    features: [],
    faq: [],
    cta: { headline: cut(`Be the first to try ${app.name}`, LIMITS.cta.headline[1]) },
    signup: {
      enabled: true,
      buttonLabel: 'Sign up',
      consentText: 'We will only use your e-mail to tell you about this app.',
      successMessage: "Thanks! You're on the list.",
    },
    theme: { accent: DEFAULT_ACCENT },
  };
}

/** At most `max` characters, cut at a word boundary when one is near, without a dangling space. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const hard = text.slice(0, max);
  const space = hard.lastIndexOf(' ');
  return (space >= max * 0.6 ? hard.slice(0, space) : hard).trimEnd();
}

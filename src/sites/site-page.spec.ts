import { defaultLandingPage, LandingPage } from '../landing-pages/landing-page.js';
import { renderLandingPage, renderNotice, themeOf } from './site-page.js';

const XSS = `<script>alert(1)</script>"><img src=x onerror=alert(2)> & 'quotes'`;

function page(overrides: Partial<LandingPage> = {}): LandingPage {
  return { ...defaultLandingPage({ name: 'Recipe Box', description: 'Share family recipes.' }), ...overrides };
}

const render = (p: LandingPage, extra: { error?: string; email?: string } = {}) =>
  renderLandingPage({
    page: p,
    appName: 'Recipe Box',
    env: 'production',
    deployedAt: new Date('2026-11-22T04:20:00Z'),
    indexable: false,
    form: { action: '/sites/dep_1/signup', token: 'dep_1.abc.sig', ...extra },
  });

describe('landing page rendering', () => {
  it('renders hero, features, FAQ, call to action and the sign-up form', () => {
    const html = render(
      page({
        features: [{ title: 'One tap', body: 'Every recipe, one tap away.' }],
        faq: [{ question: 'Is it free?', answer: 'Yes.' }],
        cta: { headline: 'Start your cookbook' },
      }),
    );
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<h1>Recipe Box</h1>');
    expect(html).toContain('<p>Share family recipes.</p>');
    expect(html).toContain('<h3>One tap</h3><p>Every recipe, one tap away.</p>');
    expect(html).toContain('<summary>Is it free?</summary><p>Yes.</p>');
    expect(html).toContain('<h2 id="signup-title">Start your cookbook</h2>');
    expect(html).toContain('<form method="post" action="/sites/dep_1/signup" novalidate>');
    expect(html).toContain('<input type="hidden" name="token" value="dep_1.abc.sig">');
    expect(html).toMatch(/name="website"[^>]*tabindex="-1"/);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toMatch(/<script|<link|https?:\/\//i);
  });

  it('escapes every value that came from the developer, in text and in attributes', () => {
    const evil: LandingPage = {
      schemaVersion: 1,
      hero: { headline: XSS, subheadline: XSS, ctaLabel: XSS },
      features: [{ title: XSS, body: XSS }],
      faq: [{ question: XSS, answer: XSS }],
      cta: { headline: XSS },
      signup: { enabled: true, buttonLabel: XSS, consentText: XSS, successMessage: XSS },
      theme: { accent: '#112233' },
    };
    const html = render(evil, { email: XSS, error: XSS });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt; &amp; &#39;quotes&#39;');
    const notice = renderNotice({ title: XSS, heading: XSS, text: XSS, back: { href: '/sites/dep_1/', label: XSS } });
    expect(notice).not.toContain('<script>');
  });

  it('keeps what the visitor typed and says what is wrong, next to the field', () => {
    const html = render(page(), { email: 'not-an-email', error: 'Enter an e-mail address like name@example.com' });
    expect(html).toContain('value="not-an-email" aria-invalid="true" aria-describedby="email-error"');
    expect(html).toContain('<p class="error" id="email-error" role="alert">Enter an e-mail address like name@example.com</p>');
  });

  it('leaves the form out when sign-up is off, and uses the accent with a readable text colour', () => {
    expect(render(page({ signup: { ...page().signup, enabled: false } }))).not.toContain('<form');
    expect(render(page({ theme: { accent: '#FFD400' } }))).toContain('--accent: #FFD400; --on-accent: #111111;');
    expect(themeOf('#5146E5')).toEqual({ accent: '#5146E5', onAccent: '#FFFFFF' });
    expect(themeOf('#FFFFFF').onAccent).toBe('#111111');
  });
});

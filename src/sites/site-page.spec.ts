import { escapeHtml, renderSitePage } from './site-page.js';

describe('site page', () => {
  const page = (name: string, description: string | null) =>
    renderSitePage({ snapshot: { schemaVersion: 1, app: { name, description } }, env: 'production', deployedAt: new Date('2025-11-22T04:20:00Z') });

  it('shows the name and description', () => {
    const html = page('Recipe Box', 'Share family recipes.');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<title>Recipe Box</title>');
    expect(html).toContain('<h1>Recipe Box</h1>');
    expect(html).toContain('<p>Share family recipes.</p>');
    expect(html).toContain('<span class="env">production</span>');
    expect(html).toContain('2025-11-22');
  });

  it('escapes everything that came from the app, so markup shows as text', () => {
    const html = page('<script>alert(1)</script>', `"><img src=x onerror=alert(2)> & 'quotes'`);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('content="&quot;&gt;&lt;img src=x onerror=alert(2)&gt; &amp; &#39;quotes&#39;"');
  });

  it('leaves out an empty description', () => {
    expect(page('Solo', null)).not.toContain('<p>');
    expect(page('Solo', null)).not.toContain('name="description"');
  });

  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

import type { DeploymentSnapshot } from '../deployments/deployment-snapshot.js';

/** Escapes text for HTML element content and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** No scripts, no third-party anything: styles inline, nothing else may load. */
export const SITE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface SitePageInput {
  snapshot: DeploymentSnapshot;
  env: string;
  deployedAt: Date;
}

/** The deployed page of an app: its snapshot as a small, self-contained HTML document. Every value is escaped. */
export function renderSitePage({ snapshot, env, deployedAt }: SitePageInput): string {
  const name = escapeHtml(snapshot.app.name);
  const description = snapshot.app.description ? escapeHtml(snapshot.app.description) : '';
  const day = deployedAt.toISOString().slice(0, 10);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${name}</title>
${description ? `<meta name="description" content="${description}">\n` : ''}<meta name="robots" content="${env === 'production' ? 'index, follow' : 'noindex'}">
<style>
:root { color-scheme: light dark; --bg: #f5f6fa; --card: #ffffff; --text: #17191f; --muted: #5c6273; --accent: #5146e5; --line: #e6e8ef; }
@media (prefers-color-scheme: dark) { :root { --bg: #0e1016; --card: #171a22; --text: #eceef4; --muted: #9ba2b3; --accent: #8d86ff; --line: #262a35; } }
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; padding: 2rem 1rem;
  font: 17px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  background: radial-gradient(circle at 20% 0%, color-mix(in srgb, var(--accent) 14%, transparent), transparent 55%), var(--bg); color: var(--text); }
main { width: min(42rem, 100%); background: var(--card); border: 1px solid var(--line); border-radius: 20px; padding: clamp(2rem, 6vw, 3.5rem);
  box-shadow: 0 1px 2px rgb(0 0 0 / 4%), 0 12px 40px rgb(0 0 0 / 8%); }
.env { display: inline-block; font-size: .75rem; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; color: var(--accent);
  background: color-mix(in srgb, var(--accent) 12%, transparent); border-radius: 999px; padding: .25rem .75rem; }
h1 { font-size: clamp(2rem, 6vw, 3rem); line-height: 1.1; letter-spacing: -.02em; margin: 1rem 0; overflow-wrap: anywhere; }
p { margin: 0; color: var(--muted); font-size: 1.125rem; white-space: pre-line; overflow-wrap: anywhere; }
footer { margin-top: 2.5rem; padding-top: 1rem; border-top: 1px solid var(--line); font-size: .85rem; color: var(--muted); }
</style>
</head>
<body>
<main>
<span class="env">${escapeHtml(env)}</span>
<h1>${name}</h1>
${description ? `<p>${description}</p>\n` : ''}<footer>Deployed <time datetime="${deployedAt.toISOString()}">${day}</time></footer>
</main>
</body>
</html>
`;
}

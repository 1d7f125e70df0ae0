import { postPortalForm } from './members.js';
import type { TestDnsServer } from './dns-server.js';
import type { TestApp } from './test-app.js';

/** The fields of PUT /v1/sso, as a test writes them. */
export interface SsoFields {
  issuer?: string;
  clientId?: string;
  clientSecret?: string;
  domains?: string[];
  defaultRole?: string;
  required?: boolean;
}

/** An owner signed in to the portal: the only caller that changes single sign-on (an API key or token gets 403 owner_member_required). */
export interface SsoOwner {
  cookie: string;
  /** Any key of the account, to read the settings back (GET /v1/sso takes members:read). */
  apiKey: string;
}

/** A page's text with the entities Eta writes turned back into characters (to compare messages). */
export function unescaped(html: string): string {
  return html.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

/**
 * Saves single sign-on through the portal's SSO page as `owner` (the same service and DTO as PUT
 * /v1/sso). Expects `status`; answers the page (`text` unescaped: a refusal's message is on it) and,
 * when saved, the settings as GET /v1/sso answers them (`body`).
 */
export async function saveSso(
  app: TestApp,
  owner: SsoOwner,
  fields: SsoFields,
  status: number,
): Promise<{ status: number; text: string; body: Record<string, unknown> }> {
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (name === 'domains') form.domains = (value as string[]).join(' ');
    else if (name === 'required') {
      if (value === true) form.required = 'on';
    } else form[name] = String(value);
  }
  const page = await postPortalForm(app, owner.cookie, '/portal/sso/settings', form);
  const text = unescaped(page.text);
  if (page.status !== status)
    throw new Error(
      `the SSO page answered ${page.status}, not ${status}: ${text
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .slice(0, 600)}`,
    );
  const body = status === 200 ? (await app.http().get('/v1/sso').set('authorization', `Bearer ${owner.apiKey}`).expect(200)).body : {};
  return { status: page.status, text, body };
}

/** Turns single sign-on off through the portal's SSO page as an owner signed in (`cookie`); expects `status`, answers the page. */
export async function removeSso(app: TestApp, cookie: string, status: number): Promise<{ status: number; text: string }> {
  const page = await postPortalForm(app, cookie, '/portal/sso/settings/delete', {});
  const text = unescaped(page.text);
  if (page.status !== status) throw new Error(`the SSO page answered ${page.status}, not ${status}`);
  return { status: page.status, text };
}

/** Publishes the TXT record of each of the account's pending SSO domains on `dns` and verifies it (only proven domains route sign-ins). */
export async function proveSsoDomains(app: TestApp, apiKey: string, dns: TestDnsServer): Promise<void> {
  const settings = (
    await app
      .http()
      .get('/v1/sso')
      .set({ authorization: `Bearer ${apiKey}` })
      .expect(200)
  ).body as {
    domainProofs: Array<{ domain: string; status: string; verification: { name: string; value: string } }>;
  };
  for (const proof of settings.domainProofs) {
    if (proof.status === 'verified') continue;
    dns.set(proof.verification.name, { txt: [proof.verification.value] });
    await app
      .http()
      .post(`/v1/sso/domains/${proof.domain}/verify`)
      .set({ authorization: `Bearer ${apiKey}` })
      .expect(200);
  }
}

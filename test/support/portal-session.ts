import { type ChildServer, requestLogLines } from './child-server.js';
import { ADMIN_TOKEN, TestApp } from './test-app.js';
import { until } from './webhook-receiver.js';

export const PORTAL_PASSWORD = 'correct horse battery staple';

export interface PortalSession {
  accountId: string;
  apiKey: string;
  /** The `portal_session=…` cookie pair. */
  cookie: string;
  /** The session's CSRF token (every signed-in form's). */
  csrf: string;
}

/** The first CSRF token of a portal page's forms. */
export function csrfOf(html: string): string {
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error('no CSRF token on the page');
  return csrf;
}

/** A new account, signed in to the portal through its invite (password PORTAL_PASSWORD); `headers` go with the invite's requests (an X-Forwarded-For). */
export async function portalSession(app: TestApp, email: string, headers: Record<string, string> = {}): Promise<PortalSession> {
  const created = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email }).expect(201);
  const { accountId, apiKey, portalInviteUrl } = created.body as { accountId: string; apiKey: string; portalInviteUrl: string };
  const path = new URL(portalInviteUrl).pathname;
  const invite = await app.http().get(path).set(headers).expect(200);
  const accepted = await app
    .http()
    .post(path)
    .set({ ...headers, cookie: String(invite.headers['set-cookie']).split(';')[0] })
    .type('form')
    .send({ _csrf: csrfOf(invite.text), password: PORTAL_PASSWORD, confirm: PORTAL_PASSWORD })
    .expect(303);
  const cookie = ([] as string[])
    .concat(accepted.headers['set-cookie'])
    .find((c) => c.startsWith('portal_session='))!
    .split(';')[0];
  const overview = await app.http().get('/portal/').set('cookie', cookie).expect(200);
  return { accountId, apiKey, cookie, csrf: csrfOf(overview.text) };
}

/**
 * Opens a portal link that holds a secret (`path`, then `path/`) and posts a form without its CSRF
 * token to it (a 403); answers the three request log lines that makes (method, logged path, status).
 */
export async function secretLinkLogLines(server: ChildServer, path: string): Promise<Array<[string, string, number]>> {
  expect((await fetch(`${server.url}${path}`)).status).toBe(200);
  expect((await fetch(`${server.url}${path}/`)).status).toBe(200);
  const post = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=x' });
  expect(post.status).toBe(403);
  const prefix = path.slice(0, path.lastIndexOf('/'));
  await until(() => requestLogLines(server, prefix).length === 3, 10_000, `three request lines under ${prefix}`);
  return requestLogLines(server, prefix);
}

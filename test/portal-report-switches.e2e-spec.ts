import { ApiKeysService } from '../src/auth/api-keys.service.js';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { postPortalForm } from './support/members.js';
import { portalSession, PortalSession } from './support/portal-session.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

describe(`e-mail report switches in the portal (${target})`, () => {
  let app: TestApp;
  let owner: PortalSession;
  let memberKey: string;
  let appId: string;

  beforeAll(async () => {
    app = await startTestApp({ env: NO_RATE_LIMIT });
    owner = await portalSession(app, 'report-switches@example.com');
    appId = (await app.http().post('/v1/apps').set('authorization', `Bearer ${owner.apiKey}`).send({ name: 'Switch Shop' }).expect(201)).body.appId;
    // The account's first key acts for no member; the API answers a member's key with their switches.
    const [member] = await app.query<{ id: string }>('SELECT id FROM members WHERE account_id = $1', [owner.accountId]);
    memberKey = (
      await app.server.app.get(ApiKeysService).createFor(
        {
          accountId: owner.accountId,
          credentialId: 'portal',
          kind: 'portal_session',
          scopes: ['*'],
          member: { id: member.id, role: 'owner' },
          label: 'owner',
        },
        { type: 'member', id: member.id, label: 'owner', ip: null },
        'owner key',
        undefined,
      )
    ).key;
  });
  afterAll(async () => {
    await app?.close();
  });

  const apiSwitches = async () =>
    (await app.http().get(`/v1/apps/${appId}/analytics/reports`).set('authorization', `Bearer ${memberKey}`).expect(200)).body as Record<string, boolean>;
  const page = async (query = '') => (await app.http().get(`/portal/apps/${appId}/analytics${query}`).set('cookie', owner.cookie).expect(200)).text;
  const boxes = (html: string) => {
    const form = /<form[^>]*class="inline report-switches"[\s\S]*?<\/form>/.exec(html)?.[0] ?? '';
    return { form, weekly: /name="weekly" value="on" checked/.test(form), monthly: /name="monthly" value="on" checked/.test(form) };
  };

  it('shows the member’s switches on the analytics page and saves them through the API’s service', async () => {
    const before = boxes(await page());
    expect(before.form).toContain(`action="/portal/apps/${appId}/analytics/reports"`);
    expect(before.form).toContain(`name="_csrf" value="${owner.csrf}"`);
    expect(before).toMatchObject({ weekly: false, monthly: false });

    const saved = await postPortalForm(app, owner.cookie, `/portal/apps/${appId}/analytics/reports`, { weekly: 'on' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/portal/apps/${appId}/analytics?reports=saved`);
    expect(await apiSwitches()).toEqual({ weekly: true, monthly: false });
    const after = await page('?reports=saved');
    expect(boxes(after)).toMatchObject({ weekly: true, monthly: false });
    expect(boxes(after).form).toContain('Saved.');

    // A box left unticked is off: the browser sends no field for it.
    expect((await postPortalForm(app, owner.cookie, `/portal/apps/${appId}/analytics/reports`, { monthly: 'on' })).status).toBe(303);
    expect(await apiSwitches()).toEqual({ weekly: false, monthly: true });
    expect(boxes(await page())).toMatchObject({ weekly: false, monthly: true });
    const rows = await app.query<{ kind: string }>('SELECT kind FROM analytics_report_subscriptions WHERE app_id = $1', [appId]);
    expect(rows).toEqual([{ kind: 'monthly' }]);
  });

  it('refuses a form without the session’s CSRF token, and changes nothing', async () => {
    await app.http().post(`/portal/apps/${appId}/analytics/reports`).set('cookie', owner.cookie).type('form').send({ weekly: 'on', monthly: 'on' }).expect(403);
    await app
      .http()
      .post(`/portal/apps/${appId}/analytics/reports`)
      .set('cookie', owner.cookie)
      .type('form')
      .send({ _csrf: 'forged', weekly: 'on', monthly: 'on' })
      .expect(403);
    expect(await apiSwitches()).toEqual({ weekly: false, monthly: true });
  });

  it('answers 404 for another account’s app, on the page and the form', async () => {
    const other = await portalSession(app, 'report-switches-other@example.com');
    await app.http().get(`/portal/apps/${appId}/analytics`).set('cookie', other.cookie).expect(404);
    const refused = await postPortalForm(app, other.cookie, `/portal/apps/${appId}/analytics/reports`, { weekly: 'on' });
    expect(refused.status).toBe(404);
    expect(await apiSwitches()).toEqual({ weekly: false, monthly: true });
    expect(await app.query('SELECT kind FROM analytics_report_subscriptions WHERE app_id = $1', [appId])).toHaveLength(1);
  });
});

import request from 'supertest';
import { AnalyticsEvent } from '../src/analytics/analytics-event.js';
import { AnalyticsPartitions } from '../src/analytics/analytics-partitions.js';
import { AnalyticsWriter } from '../src/analytics/analytics-writer.js';
import { lastCompletePeriod, previousPeriod, ReportPeriod } from '../src/reports/report-periods.js';
import { ReportsService } from '../src/reports/reports.service.js';
import { pageview } from './support/analytics-events.js';
import { errorEnvelope, NO_RATE_LIMIT } from './support/api-client.js';
import { ChildServer, startChildServer } from './support/child-server.js';
import { joinMember, TestMember } from './support/members.js';
import { ReceivedMail, SmtpTestServer } from './support/smtp-server.js';
import type { Role } from '../src/common/request-context/roles.js';
import { ADMIN_TOKEN, createAccount, dropFreshResources, startTestApp, target, TestApp } from './support/test-app.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const DAY_MS = 86_400_000;
let seq = 0;
const email = (name: string) => `${name}-${process.pid}-${++seq}@reports.test`;

/** The operator's trigger: sends the reports due now. */
const trigger = (url: string) =>
  request(url).post('/v1/admin/analytics-reports/send').set(bearer(ADMIN_TOKEN)).expect(200) as unknown as Promise<{
    body: { sent: number; failed: number; skipped: number };
  }>;

/** The member's switch turned on long ago (before the period the test reports on ended): a switch counts from the first period that ends after it. */
const backdate = (app: TestApp, memberId: string) =>
  app.query(`UPDATE analytics_report_subscriptions SET created_at = now() - interval '70 days' WHERE member_id = $1`, [memberId]);

/** The days of a period, each at noon UTC plus `minute` minutes. */
const noon = (day: string, minute = 0) => new Date(Date.parse(`${day}T12:00:00Z`) + minute * 60_000);
const nthDay = (period: ReportPeriod, n: number) => new Date(Date.parse(`${period.from}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/**
 * Writes the test's traffic: in the last complete week, 4 visitors (two from news.example), 6 pageviews,
 * 1 sign-up and 2 `Download` events; in the week before, 2 visitors and 2 pageviews.
 */
async function seedTraffic(app: TestApp, appId: string): Promise<void> {
  const week = lastCompletePeriod('weekly', new Date());
  const before = previousPeriod(week);
  const partitions = app.server.app.get(AnalyticsPartitions);
  await partitions.ensure(new Date(`${before.from}T00:00:00Z`));
  await partitions.ensure(new Date(`${week.from}T00:00:00Z`));
  const d1 = nthDay(week, 1);
  const d3 = nthDay(week, 3);
  const events: AnalyticsEvent[] = [
    pageview({ appId, visitor: 1, pathname: '/', at: noon(d1), referrerHost: 'news.example' }),
    pageview({ appId, visitor: 1, pathname: '/pricing', at: noon(d1, 1), referrerHost: 'news.example' }),
    pageview({ appId, visitor: 1, pathname: '/', at: noon(d1, 2), name: 'signup' }),
    pageview({ appId, visitor: 2, pathname: '/', at: noon(d1, 5), referrerHost: 'news.example' }),
    pageview({ appId, visitor: 2, pathname: '/', at: noon(d1, 6), name: 'Download' }),
    pageview({ appId, visitor: 3, pathname: '/pricing', at: noon(d3) }),
    pageview({ appId, visitor: 3, pathname: '/docs', at: noon(d3, 1) }),
    pageview({ appId, visitor: 4, pathname: '/', at: noon(d3, 3) }),
    pageview({ appId, visitor: 4, pathname: '/', at: noon(d3, 4), name: 'Download' }),
    pageview({ appId, visitor: 5, pathname: '/', at: noon(nthDay(before, 2)) }),
    pageview({ appId, visitor: 6, pathname: '/docs', at: noon(nthDay(before, 4)) }),
  ];
  await app.server.app.get(AnalyticsWriter).write(events);
}

/** The figures the stats API gives for the report's week (and the week before). */
async function apiFigures(app: TestApp, key: string, appId: string, period: ReportPeriod) {
  const query = `period=custom&from=${period.from}&to=${period.to}`;
  const get = async (path: string) => (await app.http().get(`/v1/apps/${appId}/analytics/${path}&${query}`).set(bearer(key)).expect(200)).body;
  return {
    totals: (await get('aggregate?metrics=visitors,pageviews,signups,conversionRate')).results as Record<string, { value: number }>,
    pages: (await get('breakdown?property=page&limit=5')).data as Array<{ page: string; visitors: number }>,
    sources: (await get('breakdown?property=source&limit=5')).data as Array<{ source: string; visitors: number }>,
    goals: (await get('breakdown?property=goal&limit=5')).data as Array<{ goal: string; visitors: number }>,
  };
}

/** A new member of the account: invited with `key`, joined through the link the invitation e-mail holds. */
async function addMember(app: TestApp, smtp: SmtpTestServer, key: string, address: string, role: Role): Promise<TestMember> {
  await app.http().post('/v1/members/invitations').set(bearer(key)).send({ email: address, role }).expect(201);
  const link = /https?:\/\/\S+\/portal\/join\/[\w-]+/.exec((await smtp.nextTo(address)).text);
  if (!link) throw new Error('no invitation link in the e-mail');
  return joinMember(app, link[0], address, role);
}

/** The reports `address` received (not the invitation). */
const reportsTo = (smtp: SmtpTestServer, address: string) => smtp.to(address).filter((m) => m.headers['list-unsubscribe'] !== undefined);

const unsubscribeUrlOf = (mail: ReceivedMail) => /^<(http[^>]+)>$/.exec(mail.headers['list-unsubscribe'])![1];

describe(`analytics e-mail reports (${target})`, () => {
  let smtp: SmtpTestServer;
  let app: TestApp;

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'reports@platform.test' } });
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.stop();
  });

  const switches = (key: string, appId: string) => app.http().get(`/v1/apps/${appId}/analytics/reports`).set(bearer(key));
  const setSwitches = (key: string, appId: string, body: object) => app.http().put(`/v1/apps/${appId}/analytics/reports`).set(bearer(key)).send(body);

  it('GET/PUT …/analytics/reports: the calling member’s switches; other callers are refused', async () => {
    const account = await createAccount(app);
    const appId = (await app.http().post('/v1/apps').set(bearer(account.apiKey)).send({ name: 'Switches' }).expect(201)).body.appId as string;
    const viewer = await addMember(app, smtp, account.apiKey, email('viewer'), 'viewer');
    const dev = await addMember(app, smtp, account.apiKey, email('dev'), 'developer');

    expect((await switches(viewer.apiKey, appId).expect(200)).body).toEqual({ weekly: false, monthly: false });
    expect((await setSwitches(viewer.apiKey, appId, { weekly: true }).expect(200)).body).toEqual({ weekly: true, monthly: false });
    expect((await setSwitches(viewer.apiKey, appId, { monthly: true }).expect(200)).body).toEqual({ weekly: true, monthly: true });
    expect((await setSwitches(viewer.apiKey, appId, { weekly: false }).expect(200)).body).toEqual({ weekly: false, monthly: true });
    // Turning on what is on changes nothing (no second row).
    await setSwitches(viewer.apiKey, appId, { monthly: true }).expect(200);
    // Each member has their own.
    expect((await switches(dev.apiKey, appId).expect(200)).body).toEqual({ weekly: false, monthly: false });
    const rows = await app.query<{ member_id: string; kind: string }>(`SELECT member_id, kind FROM analytics_report_subscriptions WHERE app_id = $1`, [appId]);
    expect(rows).toEqual([{ member_id: viewer.memberId, kind: 'monthly' }]);

    const bad = await setSwitches(viewer.apiKey, appId, { weekly: 'yes' }).expect(400);
    expect(bad.body).toMatchObject({ error: true, code: 400, reason: 'invalid_parameter' });
    expect(bad.body.message).toMatch(/weekly must be true or false/);
    // The operator's first key of the account acts for no member.
    const noMember = await switches(account.apiKey, appId).expect(403);
    expect(noMember.body).toEqual(
      errorEnvelope(
        noMember,
        403,
        'report_member_required',
        'E-mail reports belong to a member: call with a portal session or an API key a member made (not a service account or the operator’s key)',
      ),
    );
    // Another account's app: 404, as everywhere.
    const other = await createAccount(app);
    const stranger = await addMember(app, smtp, other.apiKey, email('stranger'), 'admin');
    expect((await switches(stranger.apiKey, appId).expect(404)).body.reason).toBe('app_not_found');
    await setSwitches(stranger.apiKey, appId, { weekly: true }).expect(404);
    // Off again: the reports below count only their own.
    await setSwitches(viewer.apiKey, appId, { monthly: false }).expect(200);
  });

  describe('the weekly report', () => {
    let account: { accountId: string; apiKey: string };
    let appId: string;
    let reader: TestMember;
    let mail: ReceivedMail;
    const week = lastCompletePeriod('weekly', new Date());

    beforeAll(async () => {
      account = await createAccount(app);
      appId = (await app.http().post('/v1/apps').set(bearer(account.apiKey)).send({ name: 'Reported <App>' }).expect(201)).body.appId as string;
      await app.http().post(`/v1/apps/${appId}/goals`).set(bearer(account.apiKey)).send({ event: 'Download' }).expect(201);
      await seedTraffic(app, appId);
      reader = await addMember(app, smtp, account.apiKey, email('reader'), 'viewer');
      await setSwitches(reader.apiKey, appId, { weekly: true }).expect(200);
      await backdate(app, reader.memberId);
    });

    it('goes once however often and however concurrently the trigger is called, as multipart text + HTML with List-Unsubscribe', async () => {
      const runs = await Promise.all([trigger(app.url), trigger(app.url), trigger(app.url)]);
      const again = await trigger(app.url);
      mail = await smtp.nextTo(reader.email);
      expect(runs.reduce((n, r) => n + r.body.sent, 0) + again.body.sent).toBe(1);
      expect(again.body).toEqual({ sent: 0, failed: 0, skipped: 0 });
      expect(reportsTo(smtp, reader.email)).toHaveLength(1);
      const [row] = await app.query<{ status: string; period_start: string; attempts: number }>(
        `SELECT status, to_char(period_start, 'YYYY-MM-DD') AS period_start, attempts FROM analytics_report_sends WHERE member_id = $1`,
        [reader.memberId],
      );
      expect(row).toEqual({ status: 'sent', period_start: week.from, attempts: 1 });

      expect(mail.envelope.from).toBe('reports@platform.test');
      expect(mail.headers['content-type']).toMatch(/^multipart\/alternative/);
      expect(mail.subject).toMatch(/^Weekly report: Reported <App>, /);
      expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
      const link = unsubscribeUrlOf(mail);
      expect(link).toMatch(new RegExp(`^http://[^/]+/reports/unsubscribe/rsub_[0-9A-Z]+\\.[\\w-]{43}$`));
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link}"`);
      // The app's name is text in the HTML, never markup.
      expect(mail.html).toContain('Reported &#60;App&#62;');
      expect(mail.html).not.toContain('<App>');
    });

    it('says what the analytics API says for the same week, with the change on the week before', async () => {
      const now = await apiFigures(app, reader.apiKey, appId, week);
      const before = await apiFigures(app, reader.apiKey, appId, previousPeriod(week));
      // The traffic written: the API's figures are these, and so are the mail's.
      expect(now.totals).toEqual({ visitors: { value: 4 }, pageviews: { value: 6 }, signups: { value: 1 }, conversionRate: { value: 25 } });
      expect(before.totals).toEqual({ visitors: { value: 2 }, pageviews: { value: 2 }, signups: { value: 0 }, conversionRate: { value: 0 } });
      expect(mail.text).toContain('Visitors: 4 (+100 % on the period before)');
      expect(mail.text).toContain('Pageviews: 6 (+200 % on the period before)');
      expect(mail.text).toContain('Sign-ups: 1 (new on the period before)');
      expect(mail.text).toContain('Conversion rate: 25 % (+25 pt on the period before)');
      const text = mail.text.replace(/\r\n/g, '\n');
      const list = (heading: string) => text.split(`${heading}:\n`)[1].split('\n\n')[0].split('\n');
      expect(list('Top pages')).toEqual(now.pages.map((p) => `  ${p.page} — ${p.visitors} visitors`));
      expect(now.pages.map((p) => [p.page, p.visitors])).toEqual([
        ['/', 3],
        ['/pricing', 2],
        ['/docs', 1],
      ]);
      expect(list('Top sources')).toEqual(now.sources.map((s) => `  ${s.source} — ${s.visitors} visitors`));
      expect(now.sources.map((s) => [s.source, s.visitors])).toEqual([
        ['news.example', 2],
        ['Direct / None', 2],
      ]);
      expect(list('Goals')).toEqual(now.goals.map((g) => `  ${g.goal} — ${g.visitors} visitors`));
      expect(now.goals.map((g) => [g.goal, g.visitors])).toEqual([
        ['Download', 2],
        ['Sign-up', 1],
      ]);
      // The HTML part has the same figures.
      for (const cell of ['<td style="padding:4px 12px 4px 0;text-align:left">4</td>', '+100 %', '25 %', '+25 pt', 'news.example', 'Download'])
        expect(mail.html).toContain(cell);
    });

    it('unsubscribes with one POST (GET only shows the button); the link works once and the next week sends nothing', async () => {
      const link = new URL(unsubscribeUrlOf(mail));
      // A mail scanner following the link changes nothing.
      const page = await app.http().get(link.pathname).expect(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['x-robots-tag']).toBe('noindex');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.text).toContain('<form method="post">');
      expect(page.text).toContain('the weekly report of Reported &#60;App&#62;');
      expect((await switches(reader.apiKey, appId).expect(200)).body.weekly).toBe(true);
      // A forged token: nothing.
      const forged = `${link.pathname.slice(0, -3)}AAA`;
      await app.http().post(forged).type('form').send({ 'List-Unsubscribe': 'One-Click' }).expect(404);
      await app.http().get(forged).expect(404);
      expect((await switches(reader.apiKey, appId).expect(200)).body.weekly).toBe(true);

      // A second member stays subscribed: the next week's run does send (to them), so the first one's silence is the unsubscribe.
      const keeper = await addMember(app, smtp, account.apiKey, email('keeper'), 'developer');
      await setSwitches(keeper.apiKey, appId, { weekly: true }).expect(200);
      await backdate(app, keeper.memberId);
      expect((await trigger(app.url)).body).toEqual({ sent: 1, failed: 0, skipped: 0 });
      await smtp.nextTo(keeper.email);

      // RFC 8058's one-click POST, as a mail client sends it.
      const done = await app.http().post(link.pathname).type('form').send('List-Unsubscribe=One-Click').expect(200);
      expect(done.text).toContain('Unsubscribed');
      expect((await switches(reader.apiKey, appId).expect(200)).body).toEqual({ weekly: false, monthly: false });
      await app.http().post(link.pathname).type('form').send('List-Unsubscribe=One-Click').expect(404);
      await app.http().get(link.pathname).expect(404);

      const nextMonday = new Date(Date.parse(`${week.to}T06:00:00Z`) + 8 * DAY_MS);
      const reports = app.server.app.get(ReportsService);
      expect(await reports.sendDue(nextMonday)).toEqual({ sent: 1, failed: 0, skipped: 0 });
      expect((await smtp.nextTo(keeper.email)).subject).toMatch(/^Weekly report: Reported <App>, /);
      expect(reportsTo(smtp, reader.email)).toHaveLength(1);
      // Turning it on again makes a new switch: the old link stays dead.
      await setSwitches(reader.apiKey, appId, { weekly: true }).expect(200);
      await app.http().post(link.pathname).type('form').send('List-Unsubscribe=One-Click').expect(404);
      expect((await switches(reader.apiKey, appId).expect(200)).body.weekly).toBe(true);
    });

    it('a member removed from the team gets none; a switch turned on after the week ended waits for the next week', async () => {
      const leaver = await addMember(app, smtp, account.apiKey, email('leaver'), 'developer');
      await setSwitches(leaver.apiKey, appId, { weekly: true, monthly: true }).expect(200);
      await backdate(app, leaver.memberId);
      const late = await addMember(app, smtp, account.apiKey, email('late'), 'viewer');
      await setSwitches(late.apiKey, appId, { weekly: true }).expect(200);
      await app.http().delete(`/v1/members/${leaver.memberId}`).set(bearer(account.apiKey)).expect(204);
      expect(await app.query(`SELECT 1 FROM analytics_report_subscriptions WHERE member_id = $1`, [leaver.memberId])).toEqual([]);
      expect((await trigger(app.url)).body.sent).toBe(0);
      expect(reportsTo(smtp, leaver.email)).toEqual([]);
      expect(reportsTo(smtp, late.email)).toEqual([]);
    });

    it('a claim whose worker died is sent once its lease has run out, not before; an SMTP failure is tried again at the next run', async () => {
      const crashed = await addMember(app, smtp, account.apiKey, email('crashed'), 'viewer');
      await setSwitches(crashed.apiKey, appId, { weekly: true }).expect(200);
      await backdate(app, crashed.memberId);
      // A worker claimed the report and died before sending it: its lease still runs.
      const claim = (leaseSql: string) =>
        app.query(
          `INSERT INTO analytics_report_sends (member_id, app_id, kind, period_start, lease_until) VALUES ($1, $2, 'weekly', $3, ${leaseSql})
           ON CONFLICT (member_id, app_id, kind, period_start) DO UPDATE SET lease_until = EXCLUDED.lease_until`,
          [crashed.memberId, appId, week.from],
        );
      await claim(`now() + interval '5 minutes'`);
      expect((await trigger(app.url)).body).toEqual({ sent: 0, failed: 0, skipped: 1 });
      expect(reportsTo(smtp, crashed.email)).toEqual([]);
      // Once it has run out, the next run sends it.
      await claim(`now() - interval '1 second'`);
      smtp.refuse = true;
      try {
        expect((await trigger(app.url)).body).toEqual({ sent: 0, failed: 1, skipped: 0 });
      } finally {
        smtp.refuse = false;
      }
      expect((await trigger(app.url)).body).toEqual({ sent: 1, failed: 0, skipped: 0 });
      await smtp.nextTo(crashed.email);
      expect((await trigger(app.url)).body.sent).toBe(0);
      expect(reportsTo(smtp, crashed.email)).toHaveLength(1);
      const [row] = await app.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM analytics_report_sends WHERE member_id = $1`, [
        crashed.memberId,
      ]);
      expect(row).toEqual({ status: 'sent', attempts: 3 });
    });
  });
});

describe(`analytics e-mail reports across a restart and a second worker (${target}, child processes)`, () => {
  let smtp: SmtpTestServer;
  let env: Record<string, string>;
  const children: ChildServer[] = [];

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
  });
  afterAll(async () => {
    await Promise.all(children.map((c) => c.stop('SIGKILL')));
    if (env) await dropFreshResources(env);
    await smtp?.stop();
  });

  it('sends the weekly report once: triggered before a restart, then on two workers at once', async () => {
    const app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'reports@platform.test' }, keep: true });
    env = app.env;
    let first: TestMember;
    let second: TestMember;
    try {
      const account = await createAccount(app);
      const appId = (await app.http().post('/v1/apps').set(bearer(account.apiKey)).send({ name: 'Restarted' }).expect(201)).body.appId as string;
      await seedTraffic(app, appId);
      first = await addMember(app, smtp, account.apiKey, email('first'), 'viewer');
      second = await addMember(app, smtp, account.apiKey, email('second'), 'viewer');
      await app.http().put(`/v1/apps/${appId}/analytics/reports`).set(bearer(first.apiKey)).send({ weekly: true }).expect(200);
      await backdate(app, first.memberId);
      expect((await trigger(app.url)).body.sent).toBe(1);
      expect((await smtp.nextTo(first.email)).text).toContain('Visitors: 4 (+100 % on the period before)');
      // Switched on before the restart, sent after it.
      await app.http().put(`/v1/apps/${appId}/analytics/reports`).set(bearer(second.apiKey)).send({ weekly: true }).expect(200);
      await backdate(app, second.memberId);
    } finally {
      await app.close();
    }

    // The embedded database is one process's: there the second "worker" is a second trigger at once on the restarted one.
    const workers = target === 'postgres' ? 2 : 1;
    for (let i = 0; i < workers; i++) children.push(await startChildServer({ ...env, APP_ROLE: 'all' }));
    const runs = await Promise.all([...children, ...children].map((c) => trigger(c.url)));
    expect(runs.reduce((n, r) => n + r.body.sent, 0)).toBe(1);
    await smtp.nextTo(second.email);
    await Promise.all(children.map((c) => trigger(c.url)));
    expect(reportsTo(smtp, first.email)).toHaveLength(1);
    expect(reportsTo(smtp, second.email)).toHaveLength(1);
  }, 240_000);
});

import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { act, axeViolations } from './support/portal-browser.js';
import { SmtpTestServer } from './support/smtp-server.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';

const OWNER = 'browser-owner@team.test';
const DEV = 'browser-dev@team.test';
const VIEWER = 'browser-viewer@team.test';
const PASSWORDS: Record<string, string> = { [OWNER]: 'the owner passphrase', [DEV]: 'the developer passphrase', [VIEWER]: 'the viewer passphrase' };

const codeAt = (secret: string, at: number) => new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

describeInBrowser(`portal teams in a browser: invitations by e-mail, roles, MFA (${target})`, () => {
  let app: TestApp;
  let smtp: SmtpTestServer;
  let session: BrowserSession;
  let accountId: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    smtp = await SmtpTestServer.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, SMTP_URL: smtp.url, SMTP_FROM: 'Platform <no-reply@example.test>' } });
    session = await openBrowser({ bypassCSP: true });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await session?.close();
    await app?.close();
    await smtp?.stop();
  });

  /** The same page reached on this server (links are built on PUBLIC_URL). */
  const here = (url: string) => url.replace(/^https?:\/\/[^/]+/, app.url);
  const pathname = (page: Page) => new URL(page.url()).pathname;
  const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();
  const memberIdOf = async (email: string) => (await app.query<{ id: string }>(`SELECT id FROM members WHERE email = $1`, [email]))[0].id;
  const auditRows = (action: string, targetId?: string) =>
    app.query<{ actor_id: string }>(
      `SELECT actor_id FROM audit_log WHERE account_id = $1 AND action = $2 AND ($3::text IS NULL OR target_id = $3) ORDER BY created_at`,
      [accountId, action, targetId ?? null],
    );
  /** A browser of its own (cookies apart) for another member. */
  async function newPage(): Promise<Page> {
    const context = await session.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return context.newPage();
  }
  async function noSeriousViolations(page: Page, name: string): Promise<void> {
    expect({ name, violations: await axeViolations(page) }).toEqual({ name, violations: [] });
    await screenshot(page, name);
  }
  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${app.url}/portal/login`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORDS[email]);
    await act(page, page.getByRole('button', { name: 'Sign in' }));
  }
  async function signOut(page: Page): Promise<void> {
    await act(page, page.getByRole('button', { name: 'Sign out' }).first());
    expect(pathname(page)).toBe('/portal/login');
  }
  /** Opens the e-mailed invitation in a browser of its own and joins; answers that page, signed in. */
  async function join(email: string, role: string): Promise<Page> {
    const mail = await smtp.nextTo(email);
    expect(mail.subject).toBe(`You are invited to ${OWNER}'s developer portal`);
    const page = await newPage();
    await page.goto(here(/https?:\/\/\S+\/portal\/join\/[\w-]+/.exec(mail.text)![0]));
    await expect(page.locator('main p').first().textContent()).resolves.toBe(`You are invited to the developer portal account ${OWNER} as ${role}.`);
    await noSeriousViolations(page, `portal-join-${role}`);
    await page.getByLabel(/^Your e-mail/).fill(email);
    await page.getByLabel(/^Password/).fill(PASSWORDS[email]);
    await page.getByLabel('The same again').fill(PASSWORDS[email]);
    await act(page, page.getByRole('button', { name: 'Join and sign in' }));
    expect(pathname(page)).toBe('/portal/');
    return page;
  }
  async function createKey(page: Page, name: string, scopes: string[]): Promise<string> {
    await page.goto(`${app.url}/portal/api-keys`);
    await page.getByLabel('Name').fill(name);
    for (const scope of scopes) await page.getByRole('checkbox', { name: scope, exact: true }).check();
    await act(page, page.getByRole('button', { name: 'Create key' }));
    return page.locator('#new-key').inputValue();
  }
  const api = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  const navLabels = (page: Page) => page.locator('nav.menu-wide a').allTextContents();

  it('an owner invites a developer and a viewer by e-mail; each joins and can do exactly what the role allows, in the portal and with a key', async () => {
    const owner = session.page;
    const created = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: OWNER }).expect(201);
    accountId = (created.body as { accountId: string }).accountId;
    await owner.goto(here((created.body as { portalInviteUrl: string }).portalInviteUrl));
    await owner.getByLabel('New password').fill(PASSWORDS[OWNER]);
    await owner.getByLabel('The same again').fill(PASSWORDS[OWNER]);
    await act(owner, owner.getByRole('button', { name: 'Set password and sign in' }));

    // The owner invites on the members page; the links go by e-mail.
    await owner.goto(`${app.url}/portal/members`);
    for (const [email, role] of [
      [DEV, 'developer'],
      [VIEWER, 'viewer'],
    ]) {
      await owner.getByLabel('E-mail').fill(email);
      await owner.getByLabel('Role', { exact: true }).selectOption(role);
      await act(owner, owner.getByRole('button', { name: 'Invite' }));
      await expect(owner.locator('#invited-heading').textContent()).resolves.toBe(`Invitation for ${email}`);
    }
    await noSeriousViolations(owner, 'portal-members-invited');

    const dev = await join(DEV, 'developer');
    const viewer = await join(VIEWER, 'viewer');
    expect(await navLabels(owner)).toEqual(expect.arrayContaining(['API keys', 'Service accounts', 'Members', 'Audit log']));
    expect(await navLabels(dev)).not.toContain('Service accounts');
    expect(await navLabels(viewer)).toEqual([
      'Overview',
      'Apps',
      'Users',
      'API keys',
      'Webhooks',
      'Events',
      'Billing',
      'Members',
      'Audit log',
      'Account',
      'API reference',
    ]);

    // The developer creates an app and deploys it; members and service accounts answer the 403 page.
    await dev.goto(`${app.url}/portal/apps`);
    await dev.getByLabel('Name').fill('Team app');
    await act(dev, dev.getByRole('button', { name: 'Create app' }));
    const appPath = pathname(dev);
    await act(dev, dev.getByRole('button', { name: 'Deploy' }));
    await expect(dev.locator('table.deployments tbody tr').count()).resolves.toBe(1);
    await dev.goto(`${app.url}/portal/service-accounts`);
    await expect(h1(dev)).resolves.toBe('Not allowed for your role');
    await expect(dev.locator('main p').first().textContent()).resolves.toContain(
      "Your role, developer, does not allow managing the account's API keys and service accounts (keys:write)",
    );
    await dev.goto(`${app.url}/portal/members`);
    await expect(dev.getByRole('button', { name: 'Invite' }).count()).resolves.toBe(0);

    // The viewer: the deploy button answers the 403 page naming the role; nothing is deployed.
    await viewer.goto(`${app.url}${appPath}`);
    await act(viewer, viewer.getByRole('button', { name: 'Deploy' }));
    await expect(h1(viewer)).resolves.toBe('Not allowed for your role');
    await expect(viewer.locator('main p').first().textContent()).resolves.toBe(
      'Your role, viewer, does not allow deploying and publishing (deployments:write). Ask an owner or an admin of the account if you need it.',
    );
    await noSeriousViolations(viewer, 'portal-role-403');
    expect(await app.query(`SELECT count(*)::int AS n FROM deployments WHERE account_id = $1`, [accountId])).toEqual([{ n: 1 }]);

    // Keys: each within the role, in the API too.
    await viewer.goto(`${app.url}/portal/api-keys`);
    await expect(viewer.getByRole('checkbox', { name: 'apps:write', exact: true }).count()).resolves.toBe(0);
    const viewerKey = await createKey(viewer, 'viewer key', ['apps:read']);
    await noSeriousViolations(viewer, 'portal-viewer-key');
    const devKey = await createKey(dev, 'dev key', ['apps:read', 'apps:write', 'deployments:write']);
    expect((await api(viewerKey, '/v1/apps')).status).toBe(200);
    const viewerWrite = await api(viewerKey, '/v1/apps', { method: 'POST', body: JSON.stringify({ name: 'Viewer app' }) });
    expect(viewerWrite.status).toBe(403);
    expect((await api(devKey, '/v1/apps', { method: 'POST', body: JSON.stringify({ name: 'Dev API app' }) })).status).toBe(201);
    expect((await api(devKey, '/v1/members')).status).toBe(403);
    expect((await api(devKey, '/v1/api-keys', { method: 'POST', body: JSON.stringify({ name: 'more' }) })).status).toBe(403);

    // One audit entry per action, by whom it was done.
    const [ownerId, devId, viewerId] = [await memberIdOf(OWNER), await memberIdOf(DEV), await memberIdOf(VIEWER)];
    expect((await auditRows('member.invited')).map((r) => r.actor_id)).toEqual([ownerId, ownerId]);
    expect(await auditRows('member.joined', devId)).toEqual([{ actor_id: devId }]);
    expect(await auditRows('member.joined', viewerId)).toEqual([{ actor_id: viewerId }]);
    const keyIds = await app.query<{ id: string; created_by: string }>(
      `SELECT id, created_by FROM api_keys WHERE name IN ('viewer key', 'dev key') ORDER BY name`,
    );
    expect(keyIds.map((k) => k.created_by)).toEqual([devId, viewerId]);
    for (const key of keyIds) expect(await auditRows('api_key.created', key.id)).toEqual([{ actor_id: key.created_by }]);

    // The audit log page, and its CSV export of the filtered entries.
    await owner.goto(`${app.url}/portal/audit-log`);
    await owner.getByLabel('Action').selectOption('member.joined');
    await act(owner, owner.getByRole('button', { name: 'Filter' }));
    await expect(owner.locator('tbody tr').count()).resolves.toBe(2);
    await noSeriousViolations(owner, 'portal-audit-log');
    const download = owner.waitForEvent('download');
    await owner.getByRole('link', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const { readFile } = await import('node:fs/promises');
    const csv = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(csv).toHaveLength(3);
    expect(
      csv
        .slice(1)
        .map((l) => l.split(',')[4])
        .sort(),
    ).toEqual([DEV, VIEWER]);
  });

  it('the owner sees a pending invitation on the members page and revokes it; its e-mailed link then opens nothing', async () => {
    const owner = session.page;
    const email = 'browser-revoked@team.test';
    await owner.goto(`${app.url}/portal/members`);
    await owner.getByLabel('E-mail').fill(email);
    await owner.getByLabel('Role', { exact: true }).selectOption('developer');
    await act(owner, owner.getByRole('button', { name: 'Invite' }));
    const mail = await smtp.nextTo(email);

    await owner.goto(`${app.url}/portal/members`);
    const pending = owner.getByRole('region', { name: 'Pending invitations' });
    await expect(pending.getByRole('row', { name: new RegExp(email) }).count()).resolves.toBe(1);
    await expect(
      pending
        .getByRole('row', { name: new RegExp(email) })
        .locator('td')
        .first()
        .textContent(),
    ).resolves.toBe('developer');
    await noSeriousViolations(owner, 'portal-members-pending-invitations');
    await act(owner, pending.getByRole('button', { name: `Revoke the invitation of ${email}` }));
    expect(pathname(owner)).toBe('/portal/members');
    await expect(
      owner
        .getByRole('region', { name: 'Pending invitations' })
        .getByRole('row', { name: new RegExp(email) })
        .count(),
    ).resolves.toBe(0);
    await expect(owner.getByRole('region', { name: 'Pending invitations' }).textContent()).resolves.toContain(
      'None: every invitation was used, revoked or has expired.',
    );

    const invitee = await newPage();
    await invitee.goto(here(/https?:\/\/\S+\/portal\/join\/[\w-]+/.exec(mail.text)![0]));
    await expect(h1(invitee)).resolves.toBe('Invitation not valid');
    await expect(invitee.locator('main p').first().textContent()).resolves.toContain('was revoked');
    const revoked = await app.query<{ target_id: string; actor_id: string }>(
      `SELECT target_id, actor_id FROM audit_log WHERE account_id = $1 AND action = 'member.invitation_revoked'`,
      [accountId],
    );
    expect(revoked).toEqual([{ target_id: expect.stringMatching(/^inv_/), actor_id: await memberIdOf(OWNER) }]);
    await expect(app.query(`SELECT 1 FROM members WHERE email = $1`, [email])).resolves.toEqual([]);
  });

  it('enrols in MFA, signs in with a code; the same code again is refused, a recovery code works once', async () => {
    const owner = session.page;
    // Changing two-factor sign-in needs the password typed within 5 minutes (sudo mode): this session may be older.
    await owner.goto(`${app.url}/portal/account/confirm-password?return=%2Fportal%2Faccount`);
    await owner.getByLabel('Password').fill(PASSWORDS[OWNER]);
    await act(owner, owner.getByRole('button', { name: 'Confirm password' }));
    expect(pathname(owner)).toBe('/portal/account');
    await act(owner, owner.getByRole('link', { name: 'Set up two-factor sign-in' }));
    await act(owner, owner.getByRole('button', { name: 'Turn on two-factor sign-in' }));
    await expect(owner.locator('.qr svg').count()).resolves.toBe(1);
    await noSeriousViolations(owner, 'portal-mfa-enrol');
    const secret = (await owner.locator('#mfa-secret').textContent())!;
    const now = Date.now();
    await owner.getByLabel('6-digit code').fill(codeAt(secret, now));
    await act(owner, owner.getByRole('button', { name: 'Turn on' }));
    const codes = await owner.locator('#recovery-codes code').allTextContents();
    expect(codes).toHaveLength(10);
    await noSeriousViolations(owner, 'portal-mfa-codes');
    const ownerId = await memberIdOf(OWNER);
    expect(await auditRows('mfa.enrolled', ownerId)).toEqual([{ actor_id: ownerId }]);

    const withCode = async (code: string) => {
      await signIn(owner, OWNER);
      expect(pathname(owner)).toBe('/portal/login/code');
      await owner.getByLabel('Code').fill(code);
      await act(owner, owner.getByRole('button', { name: 'Sign in' }));
    };
    await signOut(owner);
    const next = codeAt(secret, now + 30_000);
    await withCode(next);
    expect(pathname(owner)).toBe('/portal/');
    await signOut(owner);
    await withCode(next);
    expect(pathname(owner)).toBe('/portal/login/code');
    await expect(owner.locator('#code-error').textContent()).resolves.toContain('That code is not valid');
    await noSeriousViolations(owner, 'portal-mfa-code-refused');
    await withCode(codes[0]);
    expect(pathname(owner)).toBe('/portal/');
    await signOut(owner);
    await withCode(codes[0]);
    await expect(owner.locator('#code-error').textContent()).resolves.toContain('That code is not valid');
    expect((await auditRows('sign_in.failed', ownerId)).length).toBe(2);
  });
});

import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { StatementsService } from '../src/billing/statements.service.js';
import { StorageMeter } from '../src/billing/storage-meter.js';
import { FilesSweep } from '../src/files/files-sweep.service.js';
import { ApiClient, EventRecorder, EventRecorderModule, errorEnvelope, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { BrowserSession, describeInBrowser, openBrowser, screenshot } from './support/browser.js';
import { putFile, sha256 } from './support/files.js';
import { portalSession } from './support/portal-session.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const plan = (storage: object) => ({ name: 'Test', priceCents: 0, requestsPerMinute: 100_000, aiRequestsPerMinute: 100, meters: { 'storage.bytes': storage } });
const PLANS = {
  // Room for four 512 KiB files.
  free: plan({ included: 2 * MiB, hard: true }),
  // Soft: past it, the month's average is billed per MiB-month.
  metered: plan({ included: 1 * MiB, hard: false, overageCentsPerUnit: 5, unitSize: MiB }),
};
const FULL = (included: string) =>
  `The storage.bytes quota of your plan (${included}) is full. Files no deployment references are deleted 24 h after their last upload, and deleting an app deletes the files only it used.`;

/** A new file of `size` random bytes (each different). */
const file = (size = 512 * KiB) => randomBytes(size);

describe(`storage: the storage.bytes meter and its quota (${target})`, () => {
  let app: TestApp;

  const level = async (accountId: string) =>
    Number((await app.query<{ bytes: string }>(`SELECT bytes FROM account_storage WHERE account_id = $1`, [accountId]))[0]?.bytes ?? 0);
  const filesOf = async (accountId: string) =>
    app.query<{ n: number; bytes: number }>(`SELECT count(*)::int AS n, coalesce(sum(size), 0)::int AS bytes FROM files WHERE account_id = $1`, [accountId]);
  const blobsOf = (accountId: string) => (existsSync(join(app.dataDir, 'files', accountId)) ? readdirSync(join(app.dataDir, 'files', accountId)) : []);
  const holdsOf = async (accountId: string) =>
    (await app.query<{ n: number }>(`SELECT count(*)::int AS n FROM quota_reservations WHERE account_id = $1 AND meter = 'storage.bytes'`, [accountId]))[0].n;
  const storageUsage = async (dev: ApiClient) =>
    ((await dev.get('/v1/billing').expect(200)).body.usage as Array<{ meter: string }>).find((u) => u.meter === 'storage.bytes');
  const setPlan = (accountId: string, id: keyof typeof PLANS) =>
    app.http().put(`/v1/admin/accounts/${accountId}/plan`).set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ plan: id }).expect(200);

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plans-'));
    writeFileSync(join(dir, 'plans.json'), JSON.stringify(PLANS));
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, PLANS_FILE: join(dir, 'plans.json') }, modules: [EventRecorderModule] });
  });
  afterAll(() => app.close());

  it('issue 45 H2: of 200 uploads of 512 KiB never deployed, those past the plan’s storage answer 402 quota_exceeded and store nothing', async () => {
    const dev = await newAccountClient(app);
    const statuses: number[] = [];
    let refused: Response | undefined;
    const first = file();
    for (let i = 0; i < 200; i++) {
      const res = await putFile(app, dev, i === 0 ? first : file());
      statuses.push(res.status);
      refused ??= res.status === 402 ? res : undefined;
    }
    expect(statuses).toEqual([...Array(4).fill(201), ...Array(196).fill(402)]);
    expect(refused!.body).toEqual(errorEnvelope(refused!, 402, 'quota_exceeded', FULL('2 MiB')));
    // Four files kept, rows and blobs; the meter is their sum; nothing is held.
    expect(await filesOf(dev.accountId)).toEqual([{ n: 4, bytes: 2 * MiB }]);
    expect(blobsOf(dev.accountId)).toHaveLength(4);
    expect(await level(dev.accountId)).toBe(2 * MiB);
    expect(await holdsOf(dev.accountId)).toBe(0);
    expect(await storageUsage(dev)).toEqual({ meter: 'storage.bytes', used: 2 * MiB, included: 2 * MiB, percent: 100, hard: true });
    // A file the account keeps takes no room: uploading it again is 200, full as the account is.
    await putFile(app, dev, first).expect(200);
    expect(await level(dev.accountId)).toBe(2 * MiB);
  });

  it('says what is left when a file is larger than the room left; an empty file always fits', async () => {
    const dev = await newAccountClient(app);
    for (let i = 0; i < 3; i++) await putFile(app, dev, file()).expect(201);
    await putFile(app, dev, file(256 * KiB)).expect(201);
    const big = await putFile(app, dev, file(300 * KiB)).expect(402);
    expect(big.body.message).toBe(
      "The storage.bytes quota of your plan (2 MiB) has 256 KiB left, less than this file's 300 KiB. Files no deployment references are deleted 24 h after their last upload, and deleting an app deletes the files only it used.",
    );
    await putFile(app, dev, file(256 * KiB)).expect(201);
    await putFile(app, dev, Buffer.alloc(0)).expect(201);
    expect(await level(dev.accountId)).toBe(2 * MiB);
  });

  it('never lets uploads made at once go past the quota: 12 files of 512 KiB at once, room for 4', async () => {
    const dev = await newAccountClient(app);
    const bodies = Array.from({ length: 12 }, () => file());
    const results = await Promise.all(bodies.map((body) => putFile(app, dev, body)));
    const statuses = results.map((r) => r.status).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array(4).fill(201), ...Array(8).fill(402)]);
    expect(await filesOf(dev.accountId)).toEqual([{ n: 4, bytes: 2 * MiB }]);
    expect(await level(dev.accountId)).toBe(2 * MiB);
    expect(blobsOf(dev.accountId).sort()).toEqual(
      bodies
        .filter((_, i) => results[i].status === 201)
        .map((b) => sha256(b))
        .sort(),
    );
    expect(await holdsOf(dev.accountId)).toBe(0);
  });

  it('gives the room back when the sweep or an app’s deletion removes files, and keeps the meter equal to the files kept', async () => {
    const dev = await newAccountClient(app);
    const bodies = Array.from({ length: 4 }, () => file());
    for (const body of bodies) await putFile(app, dev, body).expect(201);
    await putFile(app, dev, file()).expect(402);
    // An app deploys two of them; the sweep takes the other two (past their 24 h).
    const appId = (await dev.post('/v1/apps', { name: 'Stored' }).expect(201)).body.appId as string;
    await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { '/index.html': sha256(bodies[0]), '/app.js': sha256(bodies[1]) } }).expect(200);
    await app.server.app.get(FilesSweep).sweep(new Date(Date.now() + 25 * 3600_000));
    expect(await filesOf(dev.accountId)).toEqual([{ n: 2, bytes: MiB }]);
    expect(await level(dev.accountId)).toBe(MiB);
    expect((await storageUsage(dev))!).toMatchObject({ used: MiB, percent: 50 });
    await putFile(app, dev, file()).expect(201);
    // Deleting the app deletes the files only it used (after its commit): their room comes back.
    await dev.delete(`/v1/apps/${appId}`).expect(204);
    await until(async () => (await level(dev.accountId)) === 512 * KiB, 10_000, 'the deleted app’s files released');
    expect(await filesOf(dev.accountId)).toEqual([{ n: 1, bytes: 512 * KiB }]);
    for (let i = 0; i < 3; i++) await putFile(app, dev, file()).expect(201);
    await putFile(app, dev, file()).expect(402);
  });

  it('samples the level once a day into the ledger, announces its thresholds, and bills the month’s average', async () => {
    const dev = await newAccountClient(app);
    await setPlan(dev.accountId, 'metered');
    // A soft quota takes everything (billed): 3 MiB kept, 1 MiB included.
    for (let i = 0; i < 6; i++) await putFile(app, dev, file()).expect(201);
    expect(await holdsOf(dev.accountId)).toBe(0);
    const meter = app.server.app.get(StorageMeter);
    const today = new Date();
    expect(await meter.sample(today)).toBeGreaterThan(0);
    await meter.sample(today); // the hourly job again: one sample per account and day
    // (The API requests' meter flushes its batch into the same ledger whenever it will: not this test's subject.)
    const sourceId = `storage:${today.toISOString().slice(0, 10)}:${dev.accountId}`;
    expect(
      await app.query(`SELECT meter, source_id, quantity::int AS quantity FROM usage_records WHERE account_id = $1 AND meter <> 'api.requests'`, [
        dev.accountId,
      ]),
    ).toEqual([{ meter: 'storage.bytes', source_id: sourceId, quantity: 3 * MiB }]);
    const announced = await app.server.app.get(EventRecorder).of('billing.usage.threshold_reached', dev.accountId);
    expect(announced.map((e) => e.data)).toEqual(
      [80, 100].map((threshold) => expect.objectContaining({ meter: 'storage.bytes', threshold, used: 3 * MiB, included: MiB })),
    );
    // The open statement: one day's sample over the month's days, so far (an average that accrues as S3's GB-months do).
    const statement = await app.server.app.get(StatementsService).open(dev.accountId, today);
    const days = (Date.parse(statement.period.end) - Date.parse(statement.period.start)) / 86_400_000;
    const average = Math.round((3 * MiB) / days);
    expect(statement.lines.find((l) => l.meter === 'storage.bytes')).toEqual({
      meter: 'storage.bytes',
      quantity: average,
      included: MiB,
      overage: Math.max(0, average - MiB),
      unitPriceCents: 5,
      unitSize: MiB,
      amountCents: Math.ceil(Math.max(0, average - MiB) / MiB) * 5,
    });
    // GET /v1/billing shows the level now, not the ledger's sum.
    expect(await storageUsage(dev)).toEqual({ meter: 'storage.bytes', used: 3 * MiB, included: MiB, percent: 300, hard: false });
  });

  describeInBrowser(`the portal’s billing page (${target})`, () => {
    let session: BrowserSession;
    afterAll(() => session?.close());

    it('shows the storage kept now with its bar', async () => {
      const signedIn = await portalSession(app, 'storage-dev@example.com');
      const dev = { accountId: signedIn.accountId, apiKey: signedIn.apiKey } as ApiClient;
      for (let i = 0; i < 3; i++) await putFile(app, dev, file()).expect(201);
      session = await openBrowser();
      const [name, value] = signedIn.cookie.split('=');
      await session.context.addCookies([{ name, value, url: `${app.url}/portal/` }]);
      const { page } = session;
      await page.goto(`${app.url}/portal/billing`);
      const row = page.getByRole('row', { name: /Storage/ });
      await expect(row.getByRole('cell').first().textContent()).resolves.toBe('1.5 MiB now');
      await expect(row.textContent()).resolves.toContain('2 MiB (hard)');
      await expect(row.getByRole('img').getAttribute('aria-label')).resolves.toBe('75 percent used');
      await expect(row.locator('rect.tone-ok').getAttribute('width')).resolves.toBe('75');
      await screenshot(page, 'portal-billing-storage');
    });
  });
});

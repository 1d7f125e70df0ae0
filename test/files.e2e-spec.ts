import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient, EventRecorder, EventRecorderModule, expectErrorBody, newAccountClient, NO_RATE_LIMIT, scopedClient } from './support/api-client.js';
import { putFile, sha256, uploadAll } from './support/files.js';
import { itUnless, UNLESS_POSTGRES } from './support/skips.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { FilesSweep } from '../src/files/files-sweep.service.js';

const MAX_FILE_BYTES = 64 * 1024;

describe(`uploads and deploys with files (${target})`, () => {
  let app: TestApp;
  let events: EventRecorder;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, MAX_FILE_BYTES: String(MAX_FILE_BYTES) }, modules: [EventRecorderModule] });
    events = app.server.app.get(EventRecorder);
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  const blobPath = (accountId: string, hash: string) => join(app.dataDir, 'files', accountId, hash);
  const fileRows = (accountId: string) =>
    app.query<{ sha256: string; size: string; referenced: boolean }>('SELECT sha256, size, referenced FROM files WHERE account_id = $1 ORDER BY sha256', [
      accountId,
    ]);
  const createApp = async (client: ApiClient, name = 'Notes') => ((await client.post('/v1/apps', { name }).expect(201)).body as { appId: string }).appId;
  const deploymentRows = async (appId: string) =>
    Number((await app.query<{ n: string }>('SELECT count(*) AS n FROM deployments WHERE app_id = $1', [appId]))[0].n);

  describe('PUT /v1/files/:sha256', () => {
    it('stores a new file: 201 {sha256, size}, a row and the blob with the same bytes', async () => {
      const body = Buffer.from('<!doctype html><title>Notes</title>');
      const hash = sha256(body);
      const res = await putFile(app, dev, body).expect(201);
      expect(res.body).toEqual({ sha256: hash, size: body.length });
      expect(await fileRows(dev.accountId)).toEqual(expect.arrayContaining([{ sha256: hash, size: String(body.length), referenced: false }]));
      expect(readFileSync(blobPath(dev.accountId, hash)).equals(body)).toBe(true);
    });

    it('answers 200 for a file the account has, without writing it again', async () => {
      const body = Buffer.from('body { color: #222 }');
      await putFile(app, dev, body).expect(201);
      const before = statSync(blobPath(dev.accountId, sha256(body)));
      const res = await putFile(app, dev, body).expect(200);
      expect(res.body).toEqual({ sha256: sha256(body), size: body.length });
      const after = statSync(blobPath(dev.accountId, sha256(body)));
      expect({ ino: after.ino, mtime: after.mtimeMs }).toEqual({ ino: before.ino, mtime: before.mtimeMs });
    });

    it('writes the blob again when a re-upload finds its row without it', async () => {
      const body = Buffer.from('a blob that went missing');
      await putFile(app, dev, body).expect(201);
      rmSync(blobPath(dev.accountId, sha256(body)));
      await putFile(app, dev, body).expect(200);
      expect(readFileSync(blobPath(dev.accountId, sha256(body))).equals(body)).toBe(true);
    });

    it('takes an empty file and a file of exactly MAX_FILE_BYTES; one byte more is a 413 envelope, nothing stored', async () => {
      await putFile(app, dev, Buffer.alloc(0)).expect(201);
      await putFile(app, dev, Buffer.alloc(MAX_FILE_BYTES, 7)).expect(201);
      const tooBig = Buffer.alloc(MAX_FILE_BYTES + 1, 7);
      const res = await putFile(app, dev, tooBig).expect(413);
      expectErrorBody(res.body, 413, 'larger than 64 KiB');
      expect(res.body.reason).toBe('body_too_large');
      expect(existsSync(blobPath(dev.accountId, sha256(tooBig)))).toBe(false);
    });

    it('refuses a body whose digest is not the path’s: 400 digest_mismatch, nothing stored', async () => {
      const claimed = sha256('what the client meant');
      const res = await putFile(app, dev, 'something else', claimed).expect(400);
      expect(res.body.reason).toBe('digest_mismatch');
      expect(res.body.message).toContain(sha256('something else'));
      expect((await fileRows(dev.accountId)).map((r) => r.sha256)).not.toContain(claimed);
      expect(existsSync(blobPath(dev.accountId, claimed))).toBe(false);
    });

    it('refuses a hash that is not 64 lowercase hex characters', async () => {
      const body = 'x';
      for (const bad of [sha256(body).toUpperCase(), sha256(body).slice(1), `${sha256(body)}0`, 'z'.repeat(64), '..', '..%2F..%2Fetc%2Fpasswd']) {
        const res = await putFile(app, dev, body, bad);
        expect([bad, res.status, res.body.reason]).toEqual([bad, 400, 'invalid_sha256']);
      }
      const traversal = await putFile(app, dev, body, '..%2F..%2F..%2Ftmp%2Fx');
      expect(traversal.status).toBe(400);
    });

    it('takes only application/octet-stream, and no other route takes it', async () => {
      const json = await app
        .http()
        .put(`/v1/files/${sha256('{}')}`)
        .set('authorization', `Bearer ${dev.apiKey}`)
        .send({})
        .expect(415);
      expectErrorBody(json.body, 415, 'application/octet-stream');
      const elsewhere = await app
        .http()
        .post('/v1/apps')
        .set('authorization', `Bearer ${dev.apiKey}`)
        .set('content-type', 'application/octet-stream')
        .send(Buffer.from('{"name":"x"}'));
      expect([elsewhere.status, elsewhere.body.reason]).toEqual([415, 'unsupported_media_type']);
    });

    it('needs deployments:write and a credential', async () => {
      const reader = await scopedClient(app, dev, ['apps:read']);
      expect((await putFile(app, reader, 'scoped').expect(403)).body.reason).toBe('missing_scope');
      await app
        .http()
        .put(`/v1/files/${sha256('anon')}`)
        .set('content-type', 'application/octet-stream')
        .send(Buffer.from('anon'))
        .expect(401);
      expect((await fileRows(dev.accountId)).map((r) => r.sha256)).not.toContain(sha256('scoped'));
    });
  });

  describe('POST /v1/apps/deploy with files', () => {
    it('deploys files and config: url on the deployment’s own origin, files {count, bytes}, the event, the rows', async () => {
      const appId = await createApp(dev);
      const files = {
        '/index.html': '<!doctype html><h1>Notes</h1>',
        '/assets/app.3f9a1c2b.js': 'console.log(1)',
        '/copy/index.html': '<!doctype html><h1>Notes</h1>',
      };
      const manifest = await uploadAll(app, dev, files);
      const config = {
        spa: true,
        redirects: [{ source: '/old/:slug', destination: '/notes/:slug', status: 301 }],
        headers: [{ source: '/assets/*', headers: { 'X-Frame-Options': 'DENY' } }],
      };
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: manifest, config }).expect(200);
      const { deploymentId, createdAt } = res.body;
      const label = deploymentId.toLowerCase().replace('_', '-');
      const port = new URL(app.url).port;
      const bytes = Object.values(files).reduce((n, f) => n + Buffer.byteLength(f), 0);
      expect(res.body).toEqual({
        status: 'success',
        deploymentId,
        url: `http://${label}.localhost:${port}/`,
        appId,
        env: 'production',
        createdAt,
        files: { count: 3, bytes },
        config,
      });

      const got = await dev.get(`/v1/deployments/${deploymentId}`).expect(200);
      expect(got.body).toEqual({ ...res.body, snapshot: expect.objectContaining({ name: 'Notes' }) });
      const listed = await dev.get(`/v1/apps/${appId}/deployments`).expect(200);
      expect(listed.body.data[0]).toEqual(got.body);

      const [row] = await app.query<{ files: unknown; files_count: number; files_bytes: string; config: unknown }>(
        'SELECT files, files_count, files_bytes, config FROM deployments WHERE id = $1',
        [deploymentId],
      );
      expect(row).toEqual({ files: manifest, files_count: 3, files_bytes: String(bytes), config });
      expect((await fileRows(dev.accountId)).filter((r) => Object.values(manifest).includes(r.sha256)).every((r) => r.referenced)).toBe(true);

      const [event] = (await events.of('deployment.succeeded')).filter((e) => e.data.deploymentId === deploymentId);
      expect(event.data).toEqual({ deploymentId, appId, env: 'production', url: res.body.url, createdAt, files: { count: 3, bytes }, config });
    });

    it('answers files_missing with every missing hash, once, and deploys nothing', async () => {
      const appId = await createApp(dev);
      const have = await uploadAll(app, dev, { '/index.html': 'have' });
      const a = sha256('not uploaded a');
      const b = sha256('not uploaded b');
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { ...have, '/a.js': a, '/b.js': b, '/a-again.js': a } }).expect(400);
      expect(res.body).toMatchObject({ error: true, code: 400, reason: 'files_missing', missing: [a, b] });
      expect(await deploymentRows(appId)).toBe(0);
      expect((await fileRows(dev.accountId)).find((r) => r.sha256 === have['/index.html'])?.referenced).toBe(false);
    });

    it("refuses another account's hash (files are per account)", async () => {
      const other = await newAccountClient(app);
      const secret = 'only the other account uploaded this';
      await putFile(app, other, secret).expect(201);
      const appId = await createApp(dev);
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { '/index.html': sha256(secret) } }).expect(400);
      expect(res.body).toMatchObject({ reason: 'files_missing', missing: [sha256(secret)] });
      // Uploading it themselves is what makes it theirs (201: a file of their own, not the other account's).
      await putFile(app, dev, secret).expect(201);
      await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { '/index.html': sha256(secret) } }).expect(200);
    });

    it('refuses bad paths, naming each, and deploys nothing', async () => {
      const appId = await createApp(dev);
      const { '/ok.html': hash } = await uploadAll(app, dev, { '/ok.html': 'ok' });
      const bad = [
        'index.html',
        '/a/../etc/passwd',
        '/a/./b',
        '/..',
        '/a//b',
        '/dir/',
        '/',
        '/a\\b',
        '/tab\there',
        '/nul\u0000',
        '/del\u007f',
        '/c1\u0085',
        `/${'é'.repeat(512)}`,
        '/signup',
        '/thanks',
        '/signup.html',
        '/thanks/index.html',
        '/_platform/analytics.js',
        '/_platform',
      ];
      for (const path of bad) {
        const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { '/ok.html': hash, [path]: hash } });
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body.reason).toBe('invalid_parameter');
        if (!path.includes('\u0000')) expect(res.body.message).toContain(JSON.stringify(path).slice(0, 20));
      }
      // At 1,024 bytes a path is fine.
      await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { [`/${'é'.repeat(511)}a`]: hash } }).expect(200);
      expect(await deploymentRows(appId)).toBe(1);
    });

    it('refuses bad hashes, an empty map, a non-object, and config without files', async () => {
      const appId = await createApp(dev);
      const cases: Array<[unknown, string]> = [
        [{ '/a.html': 'ABC' }, 'must be a SHA-256'],
        [{ '/a.html': sha256('x').toUpperCase() }, 'must be a SHA-256'],
        [{ '/a.html': 42 }, 'must be a SHA-256'],
        [{}, 'at least one file'],
        [['/a.html'], 'files must be an object'],
        ['/a.html', 'files must be an object'],
      ];
      for (const [files, mentions] of cases) {
        const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files }).expect(400);
        expect(res.body.message).toContain(mentions);
      }
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', config: { spa: true } }).expect(400);
      expect(res.body.message).toContain('config applies to files');
      expect(await deploymentRows(appId)).toBe(0);
    });

    it('refuses 20,001 files before looking at any, and takes 20,000 (the body limit allows such a manifest)', async () => {
      const appId = await createApp(dev);
      const { '/f': hash } = await uploadAll(app, dev, { '/f': 'one content at every path' });
      const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`/assets/chunk-${String(i).padStart(5, '0')}.3f9a1c2b.js`, hash]));
      const started = Date.now();
      const tooMany = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: many(20_001) }).expect(400);
      expect(tooMany.body.message).toContain('20,001 files; at most 20,000');
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: many(20_000) }).expect(200);
      expect(res.body.files).toEqual({ count: 20_000, bytes: 20_000 * Buffer.byteLength('one content at every path') });
      expect(Date.now() - started).toBeLessThan(20_000);
      // 20,000 hashes the account lacks: every one listed, in one look-up.
      const unknown = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`/f${i}.js`, sha256(`never uploaded ${i}`)]));
      const missing = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: unknown }).expect(400);
      expect(missing.body.reason).toBe('files_missing');
      expect(missing.body.missing).toHaveLength(20_000);
      expect(missing.body.missing[19_999]).toBe(sha256('never uploaded 19999'));
      // Past 8 MiB the body is not read: 413 naming the limit.
      const huge = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: { '/a': hash }, padding: 'x'.repeat(8 * 1024 * 1024) }).expect(413);
      expect(huge.body).toMatchObject({ reason: 'body_too_large', message: 'Request body is larger than 8 MiB' });
    });

    it('counts bytes path by path from the files table, whatever the client claims: 500 MiB at most', async () => {
      const appId = await createApp(dev);
      const big = Buffer.alloc(MAX_FILE_BYTES, 1);
      const { '/big.bin': hash } = await uploadAll(app, dev, { '/big.bin': big });
      // The table's size is what counts (a client cannot declare sizes): make this file look like 25 MiB there.
      await app.query('UPDATE files SET size = $1 WHERE account_id = $2 AND sha256 = $3', [25 * 1024 * 1024, dev.accountId, hash]);
      const paths = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`/copy-${i}.bin`, hash]));
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: paths(21), sizes: { '/copy-0.bin': 1 } }).expect(400);
      expect(res.body.reason).toBe('invalid_parameter'); // unknown field
      const over = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: paths(21) }).expect(400);
      expect(over.body).toMatchObject({ reason: 'bundle_too_large' });
      expect(over.body.message).toContain('525.0 MiB');
      const atLimit = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: paths(20) }).expect(200);
      expect(atLimit.body.files).toEqual({ count: 20, bytes: 500 * 1024 * 1024 });
      expect(await deploymentRows(appId)).toBe(1);
    });

    it('validates config: redirect patterns and statuses, forbidden headers, unknown fields', async () => {
      const appId = await createApp(dev);
      const files = await uploadAll(app, dev, { '/index.html': 'config test' });
      const cases: Array<[object, string]> = [
        [{ spa: 'yes' }, 'config.spa must be true or false'],
        [{ redirects: [{ source: '/a', destination: '/b', status: 303 }] }, 'config.redirects[0].status must be one of 301, 302, 307, 308'],
        [{ redirects: [{ source: 'a', destination: '/b', status: 301 }] }, 'config.redirects[0].source must be a path'],
        [{ redirects: [{ source: '/a/*/b', destination: '/b', status: 301 }] }, '* may only be the last segment'],
        [{ redirects: [{ source: '/a/:', destination: '/b', status: 301 }] }, 'is not a parameter'],
        [{ redirects: [{ source: '/a/:id', destination: '/b/:slug', status: 301 }] }, 'uses :slug, which its source does not have'],
        [{ redirects: [{ source: '/a', destination: '/b/*', status: 301 }] }, 'uses *, which its source does not have'],
        [{ redirects: [{ source: '/a', destination: '//evil.example', status: 301 }] }, 'must start with / (a path of this site) or http(s)://'],
        [{ redirects: [{ source: '/a', destination: 'javascript:alert(1)', status: 301 }] }, 'must start with /'],
        [{ redirects: [{ source: '/a', destination: '/b', status: 301, force: true }] }, 'property config.redirects[0].force should not exist'],
        [{ headers: [{ source: '/*', headers: { 'Set-Cookie': 'a=b' } }] }, 'Set-Cookie cannot be set by a site'],
        [{ headers: [{ source: '/*', headers: { connection: 'close' } }] }, 'connection cannot be set by a site'],
        [{ headers: [{ source: '/*', headers: { 'Content-Length': '1' } }] }, 'Content-Length cannot be set'],
        [{ headers: [{ source: '/*', headers: { 'Content-Encoding': 'gzip' } }] }, 'Content-Encoding cannot be set'],
        [{ headers: [{ source: '/*', headers: { 'Transfer-Encoding': 'chunked' } }] }, 'Transfer-Encoding cannot be set'],
        [{ headers: [{ source: '/*', headers: { Upgrade: 'h2c' } }] }, 'Upgrade cannot be set'],
        [{ headers: [{ source: '/*', headers: { 'X-Bad': 'a\r\nSet-Cookie: x=y' } }] }, 'without line breaks'],
        [{ headers: [{ source: '/*', headers: { 'Bad Name': 'x' } }] }, 'not a valid header name'],
        [{ basePath: '/x' }, 'property config.basePath should not exist'],
        [{ redirects: Array.from({ length: 501 }, () => ({ source: '/a', destination: '/b', status: 301 })) }, 'at most 500'],
      ];
      for (const [config, mentions] of cases) {
        const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files, config });
        expect([mentions, res.status]).toEqual([mentions, 400]);
        expect(res.body.message).toContain(mentions);
      }
      expect(await deploymentRows(appId)).toBe(0);
      const fine = {
        cleanUrls: true,
        redirects: [{ source: '/docs/*', destination: 'https://docs.example.com:8443/:slug/*'.replace(':slug/', ''), status: 308 }],
      };
      await dev.post('/v1/apps/deploy', { appId, env: 'production', files, config: fine }).expect(200);
    });

    it('without files, a deploy is what it was', async () => {
      const appId = await createApp(dev);
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['appId', 'createdAt', 'deploymentId', 'env', 'status', 'url']);
      expect(res.body.url).toBe(`${app.url}/sites/${res.body.deploymentId}/`);
    });
  });
  describe('the files’ life: the 24 h sweep and app deletion', () => {
    const hoursAgo = (accountId: string, hash: string, hours: number) =>
      app.query(`UPDATE files SET created_at = now() - make_interval(hours => $3) WHERE account_id = $1 AND sha256 = $2`, [accountId, hash, hours]);
    const state = async (client: ApiClient, hash: string) => ({
      row: (await fileRows(client.accountId)).some((r) => r.sha256 === hash),
      blob: existsSync(blobPath(client.accountId, hash)),
    });
    const sweep = () => app.server.app.get(FilesSweep).sweep(new Date(Date.now() - 24 * 3600 * 1000));

    it('deletes files no deployment references 24 h after their last upload (rows and blobs), and keeps the rest', async () => {
      const owner = await newAccountClient(app);
      const appId = await createApp(owner);
      const {
        '/old.js': old,
        '/deployed.js': deployed,
        '/fresh.js': fresh,
        '/again.js': again,
      } = await uploadAll(app, owner, {
        '/old.js': 'old and never deployed',
        '/deployed.js': 'old and deployed',
        '/fresh.js': 'fresh and never deployed',
        '/again.js': 'old, never deployed, uploaded again',
      });
      await owner.post('/v1/apps/deploy', { appId, env: 'production', files: { '/index.js': deployed } }).expect(200);
      for (const hash of [old, deployed, again]) await hoursAgo(owner.accountId, hash, 25);
      await hoursAgo(owner.accountId, fresh, 23);
      // Uploading it again restarts its 24 h (200: the account has it).
      await putFile(app, owner, 'old, never deployed, uploaded again').expect(200);

      expect(await sweep()).toBeGreaterThanOrEqual(1);
      expect(await state(owner, old)).toEqual({ row: false, blob: false });
      expect(await state(owner, deployed)).toEqual({ row: true, blob: true });
      expect(await state(owner, fresh)).toEqual({ row: true, blob: true });
      expect(await state(owner, again)).toEqual({ row: true, blob: true });
      // A swept file can be uploaded again, and deployed.
      await putFile(app, owner, 'old and never deployed').expect(201);
      expect(await state(owner, old)).toEqual({ row: true, blob: true });
      await owner.post('/v1/apps/deploy', { appId, env: 'production', files: { '/old.js': old } }).expect(200);
    });

    // The embedded database runs one transaction at a time: nothing can interleave there.
    itUnless(UNLESS_POSTGRES)('does not sweep a file a deploy holds while it deploys', async () => {
      const owner = await newAccountClient(app);
      const { '/held.js': held } = await uploadAll(app, owner, { '/held.js': 'held by a deploy in flight' });
      await hoursAgo(owner.accountId, held, 25);
      // A deploy's share lock on the row, held in another session: the sweep skips the row instead of waiting.
      const pg = (await import('pg')).default;
      const session = new pg.Client({ connectionString: app.env.DATABASE_URL });
      await session.connect();
      try {
        await session.query('BEGIN');
        await session.query('SELECT 1 FROM files WHERE account_id = $1 AND sha256 = $2 FOR KEY SHARE', [owner.accountId, held]);
        await sweep();
        expect(await state(owner, held)).toEqual({ row: true, blob: true });
        await session.query('ROLLBACK');
      } finally {
        await session.end();
      }
      await sweep();
      expect(await state(owner, held)).toEqual({ row: false, blob: false });
    });

    it("deleting an app deletes the files only its deployments referenced, and keeps those another app's deployment references", async () => {
      const owner = await newAccountClient(app);
      const doomed = await createApp(owner, 'Doomed');
      const survivor = await createApp(owner, 'Survivor');
      const {
        '/only.js': only,
        '/shared.js': shared,
        '/loose.js': loose,
        '/older.js': older,
      } = await uploadAll(app, owner, {
        '/only.js': 'only the doomed app',
        '/shared.js': 'both apps',
        '/loose.js': 'uploaded, never deployed',
        '/older.js': 'an older deployment of the doomed app',
      });
      await owner.post('/v1/apps/deploy', { appId: doomed, env: 'staging', files: { '/older.js': older } }).expect(200);
      await owner.post('/v1/apps/deploy', { appId: doomed, env: 'production', files: { '/only.js': only, '/shared.js': shared } }).expect(200);
      await owner.post('/v1/apps/deploy', { appId: survivor, env: 'production', files: { '/shared.js': shared } }).expect(200);
      // Another account's copy of the same content is its own.
      const neighbour = await newAccountClient(app);
      await putFile(app, neighbour, 'only the doomed app').expect(201);

      await owner.delete(`/v1/apps/${doomed}`).expect(204);
      expect(await state(owner, only)).toEqual({ row: false, blob: false });
      expect(await state(owner, older)).toEqual({ row: false, blob: false });
      expect(await state(owner, shared)).toEqual({ row: true, blob: true });
      expect((await fileRows(owner.accountId)).find((r) => r.sha256 === shared)?.referenced).toBe(true);
      expect(await state(owner, loose)).toEqual({ row: true, blob: true });
      expect(await state(neighbour, only)).toEqual({ row: true, blob: true });
      // The survivor's deployment still references its file; the sweep keeps it.
      await hoursAgo(owner.accountId, shared, 48);
      await sweep();
      expect(await state(owner, shared)).toEqual({ row: true, blob: true });
    });
  });
});

describe(`deploys with files on a server with no origin for them (${target})`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { PUBLIC_URL: 'https://api.example.test' } });
  });
  afterAll(() => app.close());

  it('answers 400 sites_domain_required naming SITES_DOMAIN, and deploys nothing', async () => {
    const dev = await newAccountClient(app);
    const appId = ((await dev.post('/v1/apps', { name: 'Nowhere' }).expect(201)).body as { appId: string }).appId;
    const files = await uploadAll(app, dev, { '/index.html': 'nowhere' });
    const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files }).expect(400);
    expect(res.body).toMatchObject({ reason: 'sites_domain_required' });
    expect(res.body.message).toContain('SITES_DOMAIN');
    expect(await app.query('SELECT id FROM deployments WHERE app_id = $1', [appId])).toEqual([]);
    // A landing page alone still deploys.
    await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200);
  });
});

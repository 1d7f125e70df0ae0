import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { blobKey } from '../src/files/blob-store.js';
import { FilesSweep } from '../src/files/files-sweep.service.js';
import { loadConfig } from '../src/config/app-config.js';
import { createBlobStore } from '../src/files/files.module.js';
import { parseStorageUrl, S3BlobStore } from '../src/files/s3-blob-store.js';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { putFile, sha256, uploadAll } from './support/files.js';
import { type LocalS3, startLocalS3 } from './support/s3rver.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

/**
 * The S3 blob store against s3rver, a local S3-compatible server started (and stopped) here. What
 * this does not cover — real S3's authentication and IAM, its consistency, multipart uploads,
 * throttling (503 SlowDown), other providers' quirks — is listed in docs/self-hosting.md.
 */
describe(`files in an S3-compatible store (${target})`, () => {
  let s3: LocalS3;
  beforeAll(async () => {
    s3 = await startLocalS3();
  });
  afterAll(() => s3.close());

  describe('S3BlobStore', () => {
    let store: S3BlobStore;
    beforeAll(async () => {
      store = await S3BlobStore.connect(parseStorageUrl(`${s3.storageUrl.replace('?', '/some/prefix?')}`));
    });
    afterAll(() => store.onApplicationShutdown());

    it('puts, gets, has and deletes, byte for byte (no aws-chunked framing stored)', async () => {
      const bodies = [Buffer.from('<!doctype html><h1>hi</h1>'), randomBytes(5 * 1024 * 1024 + 17), Buffer.alloc(0), Buffer.from('\r\n0\r\n\r\n')];
      for (const body of bodies) {
        const key = blobKey('acc_s3test', sha256(body));
        expect(await store.has(key)).toBe(false);
        expect(await store.get(key)).toBeUndefined();
        // Streamed in, streamed out (uploads and large site files are never held whole).
        await store.put(key, Readable.from([body]), body.length);
        expect(await store.has(key)).toBe(true);
        const read = await store.get(key);
        expect(read?.length).toBe(body.length);
        expect(read?.equals(body)).toBe(true);
        const opened = await store.open(key);
        expect(opened?.size).toBe(body.length);
        const chunks: Buffer[] = [];
        for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals(body)).toBe(true);
      }
      const keys = bodies.map((b) => blobKey('acc_s3test', sha256(b)));
      await store.delete([...keys, blobKey('acc_s3test', sha256('never stored'))]);
      for (const key of keys) expect(await store.has(key)).toBe(false);
    });

    it('keeps the key shape: nothing outside <account>/<sha256>', async () => {
      await expect(store.put('../escape', Readable.from([Buffer.from('x')]), 1)).rejects.toThrow('Not a blob key');
      await expect(store.get(`acc/../../${'a'.repeat(64)}`)).rejects.toThrow('Not a blob key');
    });

    it('reads the parts of STORAGE_URL', () => {
      expect(parseStorageUrl('s3://my.bucket/a/b/?endpoint=http%3A%2F%2Fminio%3A9000&region=eu-west-1&forcePathStyle=true')).toEqual({
        bucket: 'my.bucket',
        prefix: 'a/b/',
        endpoint: 'http://minio:9000',
        region: 'eu-west-1',
        forcePathStyle: true,
      });
      expect(parseStorageUrl('s3://bucket')).toEqual({ bucket: 'bucket', prefix: '', endpoint: undefined, region: undefined, forcePathStyle: false });
    });

    it('takes the region from AWS_REGION (a setting) when STORAGE_URL names none; ?region= wins', async () => {
      const regionOf = async (env: Record<string, string>) => {
        const created = (await createBlobStore(loadConfig(env))) as S3BlobStore;
        // The client is the store's own (private): its resolved region is what requests are signed for.
        const client = (created as unknown as { client: { config: { region: () => Promise<string> } } }).client;
        try {
          return await client.config.region();
        } finally {
          created.onApplicationShutdown();
        }
      };
      const withoutRegion = s3.storageUrl.replace('&region=us-east-1', '');
      expect(await regionOf({ STORAGE_URL: withoutRegion, AWS_REGION: 'eu-west-3' })).toBe('eu-west-3');
      expect(await regionOf({ STORAGE_URL: s3.storageUrl, AWS_REGION: 'eu-west-3' })).toBe('us-east-1');
      expect(() => loadConfig({ AWS_REGION: 'Mars 1' })).toThrow('AWS_REGION must be a region name like eu-west-1');
    });
  });

  describe('the service with STORAGE_URL', () => {
    let app: TestApp;
    let dev: ApiClient;
    let store: S3BlobStore;
    beforeAll(async () => {
      app = await startTestApp({ env: { ...NO_RATE_LIMIT, STORAGE_URL: s3.storageUrl } });
      dev = await newAccountClient(app);
      store = await S3BlobStore.connect(parseStorageUrl(s3.storageUrl));
    });
    afterAll(async () => {
      store.onApplicationShutdown();
      await app.close();
    });

    it('uploads into the bucket, deploys, sweeps and deletes with the app', async () => {
      const appId = ((await dev.post('/v1/apps', { name: 'On S3' }).expect(201)).body as { appId: string }).appId;
      const files = {
        '/index.html': '<!doctype html><h1>On S3</h1>',
        '/assets/app.3f9a1c2b.js': randomBytes(300_000).toString('base64'),
        '/loose.txt': 'never deployed',
      };
      const manifest = await uploadAll(app, dev, files);
      for (const [path, body] of Object.entries(files)) expect((await store.get(blobKey(dev.accountId, manifest[path])))?.toString()).toBe(body);
      expect((await putFile(app, dev, files['/index.html'])).status).toBe(200);
      expect((await putFile(app, dev, 'tampered', manifest['/index.html'])).body.reason).toBe('digest_mismatch');

      const { '/loose.txt': loose, ...deployed } = manifest;
      const res = await dev.post('/v1/apps/deploy', { appId, env: 'production', files: deployed }).expect(200);
      expect(res.body.files).toEqual({ count: 2, bytes: Buffer.byteLength(files['/index.html']) + Buffer.byteLength(files['/assets/app.3f9a1c2b.js']) });
      expect(await app.server.app.get(FilesSweep).sweep(new Date(Date.now() + 1000))).toBe(1); // everything unreferenced: the loose file
      expect(await store.has(blobKey(dev.accountId, loose))).toBe(false);
      expect(await store.has(blobKey(dev.accountId, deployed['/index.html']))).toBe(true);

      await dev.delete(`/v1/apps/${appId}`).expect(204);
      for (const hash of Object.values(deployed)) expect(await store.has(blobKey(dev.accountId, hash))).toBe(false);
      expect(await app.query('SELECT sha256 FROM files WHERE account_id = $1', [dev.accountId])).toEqual([]);
    });
  });
});

import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { blobKey } from './blob-store.js';
import { FolderBlobStore } from './folder-blob-store.js';

describe('FolderBlobStore', () => {
  let root: string;
  let store: FolderBlobStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'blobs-'));
    store = new FolderBlobStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');

  it('puts, gets, has and deletes a blob under <account>/<sha256>, leaving no temporary file', async () => {
    const body = Buffer.from('<!doctype html><title>hi</title>');
    const key = blobKey('acc_1', sha(body));
    expect(await store.has(key)).toBe(false);
    expect(await store.get(key)).toBeUndefined();
    await store.put(key, Readable.from([body]), body.length);
    const opened = await store.open(key);
    expect(opened?.size).toBe(body.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(body)).toBe(true);
    expect(await store.open(blobKey('acc_1', sha(Buffer.from('never stored'))))).toBeUndefined();
    expect(await store.has(key)).toBe(true);
    expect((await store.get(key))?.equals(body)).toBe(true);
    expect(readdirSync(join(root, 'acc_1'))).toEqual([sha(body)]);
    await store.delete([key, blobKey('acc_1', sha(Buffer.from('never stored')))]);
    expect(await store.has(key)).toBe(false);
  });

  it('refuses keys that are not <account>/<64 hex>', async () => {
    for (const key of ['../etc/passwd', 'acc_1/../../x', `acc_1/${'A'.repeat(64)}`, `a/b/${'a'.repeat(64)}`, `/${'a'.repeat(64)}`]) {
      await expect(store.put(key, Readable.from([Buffer.from('x')]), 1)).rejects.toThrow('Not a blob key');
    }
  });
});

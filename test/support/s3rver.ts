import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  /** STORAGE_URL for the service. */
  storageUrl: string;
  endpoint: string;
  bucket: string;
  close(): Promise<void>;
}

/** The credentials s3rver checks signatures with. */
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

/**
 * s3rver (an S3-compatible server on the file system) on 127.0.0.1 and a free port, with one
 * bucket, and the AWS_* credentials it accepts set in this process for the SDK's default chain;
 * `close` stops it, removes its files and puts the environment back.
 */
export async function startLocalS3(bucket = 'platform-files'): Promise<LocalS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = (await server.run()) as { port: number };
  const saved = Object.fromEntries(Object.keys(CREDENTIALS).map((k) => [k, process.env[k]]));
  Object.assign(process.env, CREDENTIALS);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    storageUrl: `s3://${bucket}?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
    async close() {
      await server.close();
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { assertBlobKey, type BlobStore } from './blob-store.js';

/** What STORAGE_URL names: `s3://<bucket>[/<prefix>]?endpoint=…&region=…&forcePathStyle=true`. */
export interface S3Location {
  bucket: string;
  /** Prepended to every key (`files/`), empty for the bucket's root. */
  prefix: string;
  endpoint?: string;
  region?: string;
  forcePathStyle: boolean;
}

export function parseStorageUrl(storageUrl: string): S3Location {
  const url = new URL(storageUrl);
  const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
  return {
    bucket: url.hostname,
    prefix: path ? `${path}/` : '',
    endpoint: url.searchParams.get('endpoint') ?? undefined,
    region: url.searchParams.get('region') ?? undefined,
    forcePathStyle: url.searchParams.get('forcePathStyle') === 'true',
  };
}

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

/**
 * Blobs as objects of an S3-compatible store, for several instances sharing them. Credentials come
 * from the AWS SDK's default chain (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, AWS_PROFILE, an
 * instance role…). Checksums only where S3 requires them (DeleteObjects): with the SDK's default (a
 * CRC32 on every upload) a streamed body goes out aws-chunked, and some S3-compatible servers
 * (s3rver among them) store the chunk framing inside the object, silently.
 */
export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly s3: typeof import('@aws-sdk/client-s3'),
    private readonly client: S3Client,
    private readonly location: S3Location,
  ) {}

  /** Loaded only when STORAGE_URL names S3: a folder store never pays for the SDK. */
  static async connect(location: S3Location): Promise<S3BlobStore> {
    const s3 = await import('@aws-sdk/client-s3');
    const client = new s3.S3Client({
      ...(location.endpoint ? { endpoint: location.endpoint } : {}),
      region: location.region ?? process.env.AWS_REGION ?? 'us-east-1',
      forcePathStyle: location.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    return new S3BlobStore(s3, client, location);
  }

  async put(key: string, body: Readable, size: number): Promise<void> {
    await this.client.send(
      new this.s3.PutObjectCommand({
        Bucket: this.location.bucket,
        Key: this.keyOf(key),
        Body: body,
        ContentLength: size,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      const object = await this.client.send(new this.s3.GetObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(key) }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async open(key: string): Promise<{ size: number; stream: Readable } | undefined> {
    try {
      const object = await this.client.send(new this.s3.GetObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(key) }));
      if (!object.Body) return { size: 0, stream: Readable.from([]) };
      return { size: object.ContentLength ?? 0, stream: object.Body as Readable };
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      await this.client.send(new this.s3.HeadObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(key) }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const objects = keys.slice(i, i + DELETE_BATCH).map((key) => ({ Key: this.keyOf(key) }));
      const result = await this.client.send(new this.s3.DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: objects, Quiet: true } }));
      const failed = (result.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new Error(`S3 could not delete ${failed.length} objects (${failed[0].Code}: ${failed[0].Message})`);
    }
  }

  /** Nest calls it on shutdown (the store is a provider): the client's keep-alive sockets close. */
  onApplicationShutdown(): void {
    this.client.destroy();
  }

  private keyOf(key: string): string {
    assertBlobKey(key);
    return this.location.prefix + key;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}

import { createHash } from 'node:crypto';
import type request from 'supertest';
import type { ApiClient } from './api-client.js';
import type { TestApp } from './test-app.js';

export const sha256 = (body: Buffer | string) => createHash('sha256').update(body).digest('hex');

/** `PUT /v1/files/<sha256 of body>` as the client, raw bytes. */
export function putFile(app: TestApp, client: ApiClient, body: Buffer | string, hash = sha256(body)): request.Test {
  return app
    .http()
    .put(`/v1/files/${hash}`)
    .set('authorization', `Bearer ${client.apiKey}`)
    .set('content-type', 'application/octet-stream')
    .send(Buffer.from(body));
}

/** Uploads each file (201 or 200) and answers the manifest path → hash. */
export async function uploadAll(app: TestApp, client: ApiClient, files: Record<string, string | Buffer>): Promise<Record<string, string>> {
  const manifest: Record<string, string> = {};
  for (const [path, body] of Object.entries(files)) {
    const res = await putFile(app, client, body);
    if (res.status !== 201 && res.status !== 200) throw new Error(`upload of ${path}: ${res.status} ${res.text}`);
    manifest[path] = sha256(body);
  }
  return manifest;
}

import { ApiClient, errorEnvelope, newAccountClient, scopedClient } from './support/api-client.js';
import { putFile, sha256 } from './support/files.js';
import { addMember } from './support/members.js';
import { rawRequest } from './support/raw-http.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const UPLOADS_MAX = 3;
const TWENTY_FIVE_MIB = 25 * 1024 * 1024;

/**
 * A PUT whose headers announce `contentLength` bytes, of which the client sends the first 64 KiB and then waits:
 * a server that read the body before answering would never answer (the test would time out); one that answers
 * from the headers answers now.
 */
async function putAnnouncing(url: string, path: string, contentLength: number, headers: Record<string, string> = {}) {
  const head = [`PUT ${path} HTTP/1.1`, `Host: ${new URL(url).host}`, 'Content-Type: application/octet-stream', `Content-Length: ${contentLength}`]
    .concat(Object.entries(headers).map(([k, v]) => `${k}: ${v}`))
    .join('\r\n');
  const answer = await rawRequest(url, Buffer.concat([Buffer.from(`${head}\r\n\r\n`), Buffer.alloc(64 * 1024, 7)]));
  return { ...answer, body: JSON.parse(answer.body) as Record<string, unknown> };
}

describe(`file uploads: their own rate limit, guards before the body (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_UPLOADS_MAX: String(UPLOADS_MAX) } });
    dev = await newAccountClient(app);
  });
  afterAll(() => app.close());

  const fileRows = async (accountId: string) =>
    (await app.query<{ sha256: string }>('SELECT sha256 FROM files WHERE account_id = $1 ORDER BY sha256', [accountId])).map((r) => r.sha256);

  it('counts uploads per account in a bucket of their own (RATE_LIMIT_UPLOADS_MAX), never in the general one; its 429 is the envelope with Retry-After', async () => {
    const general = await dev.get('/v1/api-keys').expect(200);
    expect([general.headers['x-ratelimit-limit'], general.headers['x-ratelimit-remaining']]).toEqual(['100', '99']);

    const second = await scopedClient(app, dev, ['deployments:write']); // the account's bucket, whichever key uploads
    const stored: string[] = [];
    for (const [i, client] of [dev, second, dev].entries()) {
      const res = await putFile(app, client, `file ${i}`).expect(201);
      expect(res.body).toEqual({ sha256: sha256(`file ${i}`), size: `file ${i}`.length });
      expect([res.headers['x-ratelimit-limit'], res.headers['x-ratelimit-remaining']]).toEqual([String(UPLOADS_MAX), String(UPLOADS_MAX - 1 - i)]);
      stored.push(sha256(`file ${i}`));
    }
    const limited = await putFile(app, second, 'one too many').expect(429);
    expect(limited.body).toEqual(errorEnvelope(limited, 429, 'rate_limited', 'Rate limit reached. Retry in 60 seconds.'));
    expect([limited.headers['retry-after'], limited.headers['x-ratelimit-remaining']]).toEqual(['60', '0']);
    expect(limited.headers.connection).toBe('close'); // counted before the body, which is never read
    expect(await fileRows(dev.accountId)).toEqual(stored.sort());

    // The general bucket saw the key's creation, not the four uploads.
    const after = await dev.get('/v1/api-keys').expect(200);
    expect(after.headers['x-ratelimit-remaining']).toBe('97');
    // Another account has its own uploads bucket.
    const other = await newAccountClient(app);
    expect((await putFile(app, other, 'elsewhere').expect(201)).headers['x-ratelimit-remaining']).toBe(String(UPLOADS_MAX - 1));
  });

  it('refuses an anonymous 25 MiB upload from its headers: 401 in the envelope, the connection closed with 25 MiB unsent', async () => {
    const hash = sha256('never read');
    const anonymous = await putAnnouncing(app.url, `/v1/files/${hash}`, TWENTY_FIVE_MIB);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(
      errorEnvelope(anonymous, 401, 'missing_credential', 'Missing credential: send Authorization: Bearer <API key or access token>'),
    );
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="platform"');
    expect(anonymous.headers.connection).toBe('close');

    const badKey = await putAnnouncing(app.url, `/v1/files/${hash}`, TWENTY_FIVE_MIB, { authorization: 'Bearer sk_not_a_key' });
    expect([badKey.status, badKey.body.reason, badKey.headers.connection]).toEqual([401, 'invalid_credential', 'close']);
  });

  it('refuses a key without deployments:write the same way: 403 missing_scope before the body, nothing stored', async () => {
    const owner = await newAccountClient(app); // dev's uploads bucket is spent
    const reader = await scopedClient(app, owner, ['apps:read']);
    const before = await fileRows(owner.accountId);
    const refused = await putAnnouncing(app.url, `/v1/files/${sha256('not yours to write')}`, TWENTY_FIVE_MIB, { authorization: `Bearer ${reader.apiKey}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(errorEnvelope(refused, 403, 'missing_scope', 'This credential lacks the scope deployments:write'));
    expect(refused.headers.connection).toBe('close');
    expect(await fileRows(owner.accountId)).toEqual(before);
  });

  it("refuses, before the body too, a key whose creator's role no longer allows uploads: 403 role_forbids, nothing stored", async () => {
    const owner = await newAccountClient(app);
    const member = await addMember(app, owner.apiKey, `uploader-${owner.accountId}@example.com`, 'developer');
    await owner.patch(`/v1/members/${member.memberId}`, { role: 'viewer' }).expect(200);
    const refused = await putAnnouncing(app.url, `/v1/files/${sha256('not for a viewer')}`, TWENTY_FIVE_MIB, { authorization: `Bearer ${member.apiKey}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      ...errorEnvelope(refused, 403, 'role_forbids', 'The role viewer does not allow deployments:write'),
      role: 'viewer',
    });
    expect(refused.headers.connection).toBe('close');
    expect(await fileRows(owner.accountId)).toEqual([]);
  });

  it('takes a whole 25 MiB file from a key that may write', async () => {
    const owner = await newAccountClient(app);
    const body = Buffer.alloc(TWENTY_FIVE_MIB, 1);
    const res = await putFile(app, owner, body).expect(201);
    expect(res.body).toEqual({ sha256: sha256(body), size: TWENTY_FIVE_MIB });
    expect(await fileRows(owner.accountId)).toEqual([sha256(body)]);
  });
});

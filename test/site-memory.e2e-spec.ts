import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { type ChildServer, startChildServer } from './support/child-server.js';
import { ADMIN_TOKEN, dropFreshResources, freshEnvironment, target } from './support/fresh-database.js';

const MIB = 1024 * 1024;
const FILE_BYTES = 24 * MIB;
const COUNT = 8;
/** What the process may grow by for eight 24 MiB bodies at once: buffered whole they took +168 MiB (issue 45 H3). */
const BOUND = 64 * MIB;

/** A process's resident memory now, and its peak since the last `resetPeak` (Linux's /proc). */
const statusOf = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** The peak resident memory above the level before `work`, in the server's own process. */
async function peakGrowth(server: ChildServer, work: () => Promise<unknown>): Promise<number> {
  const pid = server.process.pid!;
  resetPeak(pid);
  const before = statusOf(pid, 'VmRSS');
  await work();
  return statusOf(pid, 'VmHWM') - before;
}

/** One request whose body is `parts` (written one after the other, never joined) and whose answer is hashed as it comes. */
function send(
  url: string,
  path: string,
  options: { method: string; headers: Record<string, string>; parts?: Buffer[] },
): Promise<{ status: number; sha256: string; length: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method: options.method, headers: options.headers, agent: false }, (res) => {
      const hash = createHash('sha256');
      let length = 0;
      let text = '';
      res.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        length += chunk.length;
        if (text.length < 4096) text += chunk.toString('utf8');
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sha256: hash.digest('hex'), length, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const part of options.parts ?? []) req.write(part);
    req.end();
  });
}

/** Issue 45 H3: uploads and first reads of large files are streamed — the server's memory stays flat as they run. */
describe(`memory under eight concurrent 24 MiB uploads and first reads (${target})`, () => {
  let env: Record<string, string>;
  let server: ChildServer;

  beforeAll(async () => {
    env = await freshEnvironment();
    server = await startChildServer(env);
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await dropFreshResources(env);
  });

  it('grows by less than 64 MiB for eight concurrent uploads, and for eight concurrent first reads, each read byte for byte', async () => {
    const json = async (path: string, body: unknown, authorization: string) => {
      const res = await send(server.url, path, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        parts: [Buffer.from(JSON.stringify(body))],
      });
      expect(res.status).toBeLessThan(300);
      return JSON.parse(res.text) as Record<string, string>;
    };
    const { apiKey } = await json('/v1/admin/accounts', { email: `memory-${Date.now()}@example.com` }, `Bearer ${ADMIN_TOKEN}`);
    const auth = `Bearer ${apiKey}`;
    const { appId } = await json('/v1/apps', { name: 'Large files' }, auth);

    // Eight distinct files of 24 MiB: one random body behind eight different first bytes.
    const body = randomBytes(FILE_BYTES - 16);
    const heads = Array.from({ length: COUNT }, () => randomBytes(16));
    const hashes = heads.map((head) => createHash('sha256').update(head).update(body).digest('hex'));

    const uploads = await peakGrowth(server, () =>
      Promise.all(
        heads.map(async (head, i) => {
          const res = await send(server.url, `/v1/files/${hashes[i]}`, {
            method: 'PUT',
            headers: { authorization: auth, 'content-type': 'application/octet-stream', 'content-length': String(FILE_BYTES) },
            parts: [head, body],
          });
          expect([res.status, res.text]).toEqual([201, expect.stringContaining(`"size":${FILE_BYTES}`)]);
        }),
      ),
    );

    const files = Object.fromEntries(hashes.map((hash, i) => [`/big${i}.bin`, hash]));
    const { url } = await json('/v1/apps/deploy', { appId, env: 'production', files: { ...files } }, auth);
    const host = new URL(url).host;

    const reads = await peakGrowth(server, () =>
      Promise.all(
        hashes.map(async (hash, i) => {
          const res = await send(server.url, `/big${i}.bin`, { method: 'GET', headers: { host, 'accept-encoding': 'gzip, br' } });
          expect([res.status, res.length, res.sha256]).toEqual([200, FILE_BYTES, hash]);
        }),
      ),
    );

    expect(uploads).toBeLessThan(BOUND);
    expect(reads).toBeLessThan(BOUND);
  }, 240_000);
});

import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { loadConfig } from '../../src/config/app-config.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { FUNCTION_LOG_SINK, FunctionsModule } from '../../src/functions/functions.module.js';
import { FunctionLogsRepository } from '../../src/functions/function-logs.repository.js';
import { InstancePool, type InstancePoolOptions } from '../../src/functions/instance-pool.js';
import { call, codeOf, deploymentOf, LogCollector, recordingServer, servePool } from '../support/functions.js';
import { until } from '../support/webhook-receiver.js';

/**
 * The instance lifecycle on real Deno (in bubblewrap where it works, as in production): cold start, streaming both
 * ways, the platform's pages (413, 502, 503, 504), memory and CPU hogs, crash loops, idle stop, LRU, waitUntil,
 * logs, graceful shutdown, and the deploy's load check.
 */
const APP = `
const instanceId = crypto.randomUUID();
let release;
const released = new Promise((resolve) => (release = resolve));
const text = (s) => new TextEncoder().encode(s);
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    switch (url.pathname) {
      case '/id':
        return new Response(instanceId);
      case '/hello':
        return new Response('hello', {
          headers: [['set-cookie', 'a=1; Path=/'], ['set-cookie', 'b=2; Path=/'], ['connection', 'x-drop'], ['x-drop', '1'], ['x-request-id', 'from-function'], ['x-kept', 'yes']],
        });
      case '/headers':
        return Response.json({ url: request.url, method: request.method, headers: [...request.headers] });
      case '/slow':
        console.log('slow started');
        await new Promise((resolve) => setTimeout(resolve, Number(url.searchParams.get('ms'))));
        return new Response('slow done');
      case '/spin': {
        console.log('spinning');
        const end = Date.now() + Number(url.searchParams.get('ms'));
        while (Date.now() < end);
        return new Response('spun');
      }
      case '/hog': {
        const keep = [];
        for (;;) keep.push(new Array(100000).fill(keep.length));
      }
      case '/buffers': {
        const keep = [];
        for (let i = 0; i < 64; i++) {
          keep.push(new Uint8Array(16 << 20).fill(1));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return new Response('kept ' + keep.length);
      }
      case '/stream':
        return new Response(new ReadableStream({ async start(c) { c.enqueue(text('first;')); await released; c.enqueue(text('second')); c.close(); } }));
      case '/release':
        release();
        return new Response('released');
      case '/echo-stream': {
        const reader = request.body.getReader();
        let total = (await reader.read()).value.length;
        return new Response(new ReadableStream({ async start(c) {
          c.enqueue(text('got first;'));
          for (;;) { const { value, done } = await reader.read(); if (done) break; total += value.length; }
          c.enqueue(text('total ' + total));
          c.close();
        } }));
      }
      case '/count': {
        let n = 0;
        for await (const chunk of request.body) n += chunk.length;
        return new Response(String(n));
      }
      case '/wait-until':
        ctx.waitUntil(new Promise((resolve) => setTimeout(resolve, 300)).then(() => fetch(env.PLATFORM_URL + '/waited')));
        return new Response('answered');
      case '/throw':
        throw new Error('boom at ' + url.pathname);
      case '/not-response':
        return { status: 200 };
      case '/log':
        console.debug('a debug line');
        console.log('an info line', { n: 1 });
        console.warn('a warning');
        console.error('an error');
        return new Response('logged');
    }
    return new Response('not found', { status: 404 });
  },
};
`;
const QUICK = `export default { fetch: () => new Response('quick') };\n`;
const CRASHES = `export default { fetch() { Deno.exit(3); } };\n`;

const app = (id: string, env: Record<string, string> = {}) => deploymentOf(id, { '/_server/index.js': APP }, env);

function poolOptions(logs: LogCollector, root: string, overrides: Partial<InstancePoolOptions> = {}): InstancePoolOptions {
  return {
    timeoutMs: 2000,
    memoryMb: 64,
    idleMs: 600_000,
    maxInstances: 10,
    maxBodyBytes: 1024 * 1024,
    platformUrl: 'http://127.0.0.1:9/v1',
    logs,
    root,
    ...overrides,
  };
}

describe('function instances: serving', () => {
  const logs = new LogCollector();
  let root: string;
  let pool: InstancePool;
  let front: { url: string; close: () => Promise<void> };
  let platform: Awaited<ReturnType<typeof recordingServer>>;
  const byHost: Record<string, ReturnType<typeof app>> = {};

  beforeAll(async () => {
    platform = await recordingServer('ok');
    root = mkdtempSync(join(tmpdir(), 'fn-life-'));
    // 5 s: a cold start under CI's full load can pass 2 s.
    pool = new InstancePool(poolOptions(logs, root, { platformUrl: `${platform.url}/v1`, timeoutMs: 5000 }));
    byHost['app.test'] = app('dep_app', { PLATFORM_URL: `${platform.url}/v1` });
    byHost['other.test'] = deploymentOf('dep_quick', { '/_server/index.js': QUICK });
    byHost['crash.test'] = deploymentOf('dep_crash', { '/_server/index.js': CRASHES });
    front = await servePool(pool, (req) => byHost[req.headers.host ?? ''] ?? byHost['app.test']);
  });

  afterAll(async () => {
    await front?.close();
    await pool?.shutdown(5000);
    await platform?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (path: string, host = 'app.test') => call(`${front.url}${path}`, { headers: { host } });

  it('starts an instance on the first request, and serves the next ones from it', async () => {
    expect(pool.running).not.toContain('dep_app');
    const first = await get('/id');
    expect(first.status).toBe(200);
    expect(pool.running).toContain('dep_app');
    expect((await get('/id')).text).toBe(first.text);
    expect(logs.of('dep_app', 'system')[0]).toMatch(/^instance started in \d+ ms$/);
  });

  it('passes the visitor’s request without hop-by-hop and platform headers, with x-real-ip; the URL as the visitor used it', async () => {
    const seen = await call(`${front.url}/headers?q=1`, {
      headers: {
        host: 'app.test',
        'x-forwarded-for': '6.6.6.6',
        'x-real-ip': '6.6.6.6',
        'x-request-id': 'visitor',
        'x-platform-url': 'http://evil.test/',
        'x-platform-control': 'drain',
        connection: 'keep-alive, x-secret-hop',
        'x-secret-hop': '1',
        te: 'trailers',
        cookie: 'session=abc',
        'x-custom': 'kept',
      },
    });
    const body = JSON.parse(seen.text) as { url: string; method: string; headers: Array<[string, string]> };
    expect(body.url).toBe('http://app.test/headers?q=1');
    const headers = Object.fromEntries(body.headers);
    expect(headers).toMatchObject({ host: 'app.test', cookie: 'session=abc', 'x-custom': 'kept', 'x-real-ip': '127.0.0.1' });
    for (const name of ['x-forwarded-for', 'x-request-id', 'x-platform-url', 'x-platform-control', 'connection', 'x-secret-hop', 'te', 'keep-alive']) {
      expect({ name, value: headers[name] }).toEqual({ name, value: undefined });
    }
    expect(pool.running).toContain('dep_app'); // the spoofed control header drained nothing
  });

  it('answers with the function’s headers, Set-Cookie included, without hop-by-hop and platform ones', async () => {
    const answer = await pool.dispatch(byHost['app.test'], {
      method: 'GET',
      url: 'http://app.test/hello',
      rawHeaders: ['Host', 'app.test'],
      body: null,
      clientIp: '203.0.113.5',
    });
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < answer.headers.length; i += 2) pairs.push([answer.headers[i].toLowerCase(), answer.headers[i + 1]]);
    expect(pairs.filter(([n]) => n === 'set-cookie').map(([, v]) => v)).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(pairs.map(([n]) => n)).toEqual(expect.arrayContaining(['x-kept', 'content-type']));
    expect(pairs.map(([n]) => n)).not.toEqual(expect.arrayContaining(['connection']));
    expect(pairs.find(([n]) => ['x-drop', 'x-request-id', 'connection', 'keep-alive', 'transfer-encoding'].includes(n))).toBeUndefined();
    answer.body.resume();
  });

  it('streams the answer: its first chunk arrives before the function has finished it', async () => {
    const res = await new Promise<IncomingMessage>((resolve) => request(`${front.url}/stream`, { headers: { host: 'app.test' }, agent: false }, resolve).end());
    const first = await new Promise<string>((resolve) => res.once('data', (c: Buffer) => resolve(c.toString())));
    expect(first).toBe('first;');
    expect(res.complete).toBe(false);
    // Only now may it go on.
    expect((await get('/release')).text).toBe('released');
    let rest = '';
    for await (const chunk of res) rest += String(chunk);
    expect(rest).toBe('second');
  });

  it('streams the request body: the function answers on its first chunk while the rest is still being sent', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const req = request(`${front.url}/echo-stream`, { method: 'POST', headers: { host: 'app.test', 'transfer-encoding': 'chunked' }, agent: false });
    const response = new Promise<IncomingMessage>((resolve) => req.on('response', resolve));
    req.write(chunk);
    const res = await response;
    const got = await new Promise<string>((resolve) => res.once('data', (c: Buffer) => resolve(c.toString())));
    expect(got).toBe('got first;');
    for (let i = 0; i < 10; i++) req.write(chunk);
    req.end();
    let rest = '';
    for await (const c of res) rest += String(c);
    expect(rest).toBe(`total ${11 * chunk.length}`);
  });

  it('refuses a body over FUNCTIONS_MAX_BODY_BYTES with the 413 page, declared or streamed', async () => {
    const declared = await call(`${front.url}/count`, { method: 'POST', headers: { host: 'app.test' }, body: Buffer.alloc(1024 * 1024 + 1) });
    expect(declared.status).toBe(413);
    expect(declared.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(declared.text).toContain('Request too large');
    const streamed = await call(`${front.url}/count`, {
      method: 'POST',
      headers: { host: 'app.test', 'transfer-encoding': 'chunked' },
      body: Buffer.alloc(2 * 1024 * 1024),
    });
    expect(streamed.status).toBe(413);
    // At the limit it passes.
    expect(await call(`${front.url}/count`, { method: 'POST', headers: { host: 'app.test' }, body: Buffer.alloc(1024 * 1024) })).toMatchObject({
      status: 200,
      text: String(1024 * 1024),
    });
  });

  it('an uncaught exception, or an answer that is not a Response: the 502 page, the error and its stack in the logs', async () => {
    const thrown = await get('/throw');
    expect(thrown.status).toBe(502);
    expect(thrown.text).toContain('failed');
    const error = logs.of('dep_app', 'error').find((m) => m.includes('boom at /throw'))!;
    expect(error).toMatch(/^Uncaught Error: boom at \/throw\n\s+at Object\.fetch \(\/_server\/index\.js:\d+:\d+\)/);
    expect(error).not.toContain(root);
    const notResponse = await get('/not-response');
    expect(notResponse.status).toBe(502);
    expect(logs.of('dep_app', 'error')).toContain('fetch() answered { status: 200 }, not a Response');
    // The instance lives on.
    expect((await get('/id')).status).toBe(200);
  });

  it('logs console.* with their levels, and one line per request: method, path without query, status, duration', async () => {
    await get('/log?secret=1');
    const lines = logs.lines.filter((l) => l.deploymentId === 'dep_app');
    expect(lines.map((l) => [l.level, l.message])).toEqual(
      expect.arrayContaining([
        ['debug', 'a debug line'],
        ['info', 'an info line { n: 1 }'],
        ['warn', 'a warning'],
        ['error', 'an error'],
      ]),
    );
    const requestLine = logs.of('dep_app', 'request').find((m) => m.startsWith('GET /log'));
    expect(requestLine).toMatch(/^GET \/log 200 \d+ms$/);
    expect(lines.every((l) => l.at instanceof Date && !l.message.includes('127.0.0.1'))).toBe(true);
  });

  it('ctx.waitUntil keeps the instance working after the answer', async () => {
    const before = platform.seen.length;
    const answer = await get('/wait-until');
    expect(answer.text).toBe('answered');
    expect(platform.seen.length).toBe(before);
    await until(() => platform.seen.length > before, 5000, 'the waitUntil work');
    expect(platform.seen.at(-1)!.url).toBe('/v1/waited');
  });

  it('a request past FUNCTIONS_TIMEOUT_MS gets the 504 page; an instance that still answers is kept', async () => {
    const id = (await get('/id')).text;
    const started = Date.now();
    const slow = await get('/slow?ms=9000');
    expect(slow.status).toBe(504);
    expect(slow.text).toContain('did not answer in time');
    expect(Date.now() - started).toBeLessThan(8500);
    expect((await get('/id')).text).toBe(id);
  });

  it('a busy loop neither stops the platform nor delays another deployment beyond a fair share; past the timeout the stuck instance is ended', async () => {
    expect((await get('/id', 'other.test')).status).toBe(200); // warm
    const id = (await get('/id')).text;
    const spinning = get('/spin?ms=9000');
    await until(() => logs.of('dep_app', 'info').includes('spinning'), 5000, 'the busy loop');
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      expect((await get('/', 'other.test')).text).toBe('quick');
      latencies.push(Date.now() - started);
    }
    console.log(`another deployment's requests during a busy loop: ${latencies.join(', ')} ms`);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect((await spinning).status).toBe(504);
    await until(() => logs.of('dep_app', 'system').some((m) => m.includes('did not answer for')), 5000, 'the stuck instance ended');
    expect((await get('/id')).text).not.toBe(id);
  });

  it('an instance that crashes 5 times within a minute answers 503 with Retry-After', async () => {
    for (let i = 0; i < 5; i++) expect((await get('/', 'crash.test')).status).toBe(502);
    const paused = await get('/', 'crash.test');
    expect(paused.status).toBe(503);
    expect(paused.headers['retry-after']).toBe('60');
    expect(logs.of('dep_crash', 'system')).toContain('5 crashes within a minute: requests answer 503 for 60 s');
    // Other deployments are unaffected.
    expect((await get('/', 'other.test')).text).toBe('quick');
  });
});

describe('function instances: idle stop, LRU and shutdown', () => {
  const logs = new LogCollector();
  let root: string;
  beforeAll(() => (root = mkdtempSync(join(tmpdir(), 'fn-pool-'))));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const send = (pool: InstancePool, deployment: ReturnType<typeof app>, path = '/id') =>
    pool.dispatch(deployment, { method: 'GET', url: `http://app.test${path}`, rawHeaders: [], body: null, clientIp: '127.0.0.1' }).then(async (answer) => {
      let text = '';
      for await (const chunk of answer.body) text += String(chunk);
      return { status: answer.status, text };
    });

  it('ends an instance past its memory (a heap hog, then buffers outside the heap) with the 502 page, and serves the next request from a fresh one', async () => {
    // A timeout far above the work's time: on a loaded machine the (niced) instance allocates and starts slowly, and the cap, not the timeout, must end it.
    const pool = new InstancePool(poolOptions(logs, join(root, 'memory'), { timeoutMs: 60_000 }));
    try {
      const deployment = app('dep_memory');
      const id = (await send(pool, deployment)).text;
      expect((await send(pool, deployment, '/hog')).status).toBe(502);
      const fresh = await send(pool, deployment);
      expect(fresh.status).toBe(200);
      expect(fresh.text).not.toBe(id);
      expect((await send(pool, deployment, '/buffers')).status).toBe(502);
      expect(logs.of('dep_memory', 'system').some((m) => /^ended: its memory \(\d+ MiB\) went past 256 MiB$/.test(m))).toBe(true);
      const third = await send(pool, deployment);
      expect(third.status).toBe(200);
      expect(third.text).not.toBe(fresh.text);
    } finally {
      await pool.shutdown(2000);
    }
  });

  it('stops an instance after FUNCTIONS_IDLE_MS without requests', async () => {
    const pool = new InstancePool(poolOptions(logs, join(root, 'idle'), { idleMs: 1000 }));
    try {
      const deployment = app('dep_idle');
      await send(pool, deployment);
      const pid = pool.pidOf('dep_idle')!;
      expect(pool.running).toEqual(['dep_idle']);
      await until(() => pool.running.length === 0, 10_000, 'the idle stop');
      expect(logs.of('dep_idle', 'system')).toContain('instance stopped after 1000 ms without requests');
      await until(() => !alive(pid), 5000, 'the process ended');
      // The next request starts it again.
      expect((await send(pool, deployment)).status).toBe(200);
    } finally {
      await pool.shutdown(2000);
    }
  });

  it('keeps at most FUNCTIONS_MAX_INSTANCES running, stopping the least recently used first', async () => {
    const pool = new InstancePool(poolOptions(logs, join(root, 'lru'), { maxInstances: 2 }));
    try {
      const [a, b, c, d] = ['dep_a', 'dep_b', 'dep_c', 'dep_d'].map((id) => app(id));
      await send(pool, a);
      await send(pool, b);
      await send(pool, c);
      expect(pool.running).toEqual(['dep_b', 'dep_c']);
      expect(logs.of('dep_a', 'system')).toContain('instance stopped to make room for another deployment (FUNCTIONS_MAX_INSTANCES)');
      await send(pool, b); // b is now the most recently used
      await send(pool, d);
      expect(pool.running).toEqual(['dep_b', 'dep_d']);
      expect(logs.of('dep_c', 'system')).toContain('instance stopped to make room for another deployment (FUNCTIONS_MAX_INSTANCES)');
    } finally {
      await pool.shutdown(2000);
    }
  });

  it('shuts down gracefully: a request in flight finishes, new ones get 503, then the instances end', async () => {
    const pool = new InstancePool(poolOptions(logs, join(root, 'shutdown')));
    const deployment = app('dep_shutdown');
    await send(pool, deployment);
    const pid = pool.pidOf('dep_shutdown')!;
    const inFlight = send(pool, deployment, '/slow?ms=1000');
    await until(() => logs.of('dep_shutdown', 'info').includes('slow started'), 5000, 'the request in flight');
    const closing = pool.shutdown(5000);
    expect((await send(pool, deployment)).status).toBe(503);
    expect(await inFlight).toEqual({ status: 200, text: 'slow done' });
    await closing;
    expect(alive(pid)).toBe(false);
    expect(pool.running).toEqual([]);
  });
});

describe('function instances: the Nest module', () => {
  it('builds the pool from the settings, and lets a request in flight finish when the application shuts down', async () => {
    const logs = new LogCollector();
    const config = loadConfig({ FUNCTIONS_SANDBOX: 'none', FUNCTIONS_TIMEOUT_MS: '5000', FUNCTIONS_MEMORY_MB: '64' });
    const moduleRef = await Test.createTestingModule({ imports: [ConfigModule.forRoot(config), FunctionsModule] })
      .overrideProvider(FUNCTION_LOG_SINK)
      .useValue(logs)
      // The lines go to `logs` above: no database here.
      .overrideProvider(FunctionLogsRepository)
      .useValue({ append: async () => undefined, purge: async () => 0 })
      .compile();
    const nest = await moduleRef.init();
    const pool = nest.get(InstancePool);
    expect(pool.sandbox.kind).toBe('none');
    const deployment = app('dep_module');
    const request = { method: 'GET', rawHeaders: [], body: null, clientIp: '127.0.0.1' };
    const inFlight = pool.dispatch(deployment, { ...request, url: 'http://app.test/slow?ms=700' });
    await until(() => logs.of('dep_module', 'info').includes('slow started'), 10_000, 'the request in flight');
    const pid = pool.pidOf('dep_module')!;
    await nest.close();
    const answer = await inFlight;
    let text = '';
    for await (const chunk of answer.body) text += String(chunk);
    expect({ status: answer.status, text }).toEqual({ status: 200, text: 'slow done' });
    expect(alive(pid)).toBe(false);
    expect((await pool.dispatch(deployment, { ...request, url: 'http://app.test/id' })).status).toBe(503);
  });
});

describe('function instances: the deploy’s load check', () => {
  const logs = new LogCollector();
  let root: string;
  let pool: InstancePool;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'fn-check-'));
    pool = new InstancePool(poolOptions(logs, root));
  });
  afterAll(async () => {
    await pool.shutdown(2000);
    rmSync(root, { recursive: true, force: true });
  });
  const check = (files: Record<string, string>, entry = '/_server/index.js') => pool.validate({ entry, code: codeOf(files) });

  it('passes a module with a default fetch, TypeScript and relative imports included', async () => {
    expect(await check({ '/_server/index.js': QUICK })).toEqual({ ok: true });
    expect(
      await check(
        {
          '/_server/index.ts': `import { greet } from './lib/greet.ts';\nexport default { fetch: (_r: Request): Response => new Response(greet('x')) };\n`,
          '/_server/lib/greet.ts': 'export const greet = (n: string): string => `hi ${n}`;\n',
        },
        '/_server/index.ts',
      ),
    ).toEqual({ ok: true });
  });

  it.each([
    ['a missing entry', { '/_server/other.js': QUICK }, /^the entry \/_server\/index\.js is not one of the deployment's files$/],
    ['a file that is no module', { '/_server/index.js': '<html>not code</html>' }, /\/_server\/index\.js/],
    ['a syntax error', { '/_server/index.js': 'export default { fetch( };' }, /\/_server\/index\.js:1/],
    ['an exception at load', { '/_server/index.js': 'throw new Error("cannot start");' }, /cannot start/],
    ['no default export', { '/_server/index.js': 'export const fetch = () => new Response("x");' }, /no default export with a fetch/],
    ['a default without fetch', { '/_server/index.js': 'export default { handle() {} };' }, /no default export with a fetch/],
    ['an npm import', { '/_server/index.js': 'import x from "npm:left-pad";\nexport default { fetch: () => new Response(x) };' }, /npm/],
    [
      'a remote import',
      { '/_server/index.js': 'import x from "https://deno.land/x/y/mod.ts";\nexport default { fetch: () => new Response(x) };' },
      /--no-remote/,
    ],
    [
      'an import from outside its folder',
      { '/_server/index.js': 'import x from "file:///etc/hostname";\nexport default { fetch: () => new Response(x) };' },
      /read access|not found/i,
    ],
  ])('refuses %s with the loader’s message', async (_what, files, message) => {
    const result = await check(files);
    expect(result).toEqual({ ok: false, message: expect.stringMatching(message) });
    const text = (result as { message: string }).message;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1024);
    expect(text).not.toContain(root);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

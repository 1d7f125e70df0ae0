// npm run bench: the service against bare references, each figure a ratio measured in this run.
// Starts the built service (dist/) as separate API and worker processes on PostgreSQL + Redis,
// seeds a fresh database, drives it with autocannon, prints a table and writes
// bench/results/<date>.json. See bench/README.md for what each load means.
//   env: DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test), REDIS_URL
//   (default redis://127.0.0.1:6379), BENCH_SECONDS (default 10), BENCH_WEBHOOK_SECONDS (default 30),
//   BENCH_CPU_PROFILE (a directory: CPU profiles of the API and the worker), BENCH_ONLY=sites (only the
//   serving loads 7–9 and the cache's memory), BENCH_ONLY=visitor (the visitor plane: loads 4, 7–11),
//   BENCH_ONLY=gateway (load 12: chat completions through the AI gateway), BENCH_ONLY=webhooks (load 3 alone),
//   BENCH_ONLY=split (load 9 with and without a split test: CPU per request), BENCH_ONLY=functions (load 13: a
//   function against bare `deno serve`, cold starts, warm instances’ memory), BENCH_ONLY=aggregate (load 5 alone)
import autocannon from 'autocannon';
import Bull from 'bull';
import { fork, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';

const ROOT = join(import.meta.dirname, '..');
const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const WEBHOOK_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 30);
const CONNECTIONS = 16;
// The V8 heap settings the npm start scripts and the Dockerfile run every process with.
const V8_HEAP_FLAGS = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring', '--heap-growing-percent=20'];
// Deliveries in flight per worker, the service's default; the reference worker runs at the same.
const WEBHOOK_CONCURRENCY = 128;
// BENCH_CPU_PROFILE=<dir>: the API and the worker write V8 CPU profiles there (<dir>/api, <dir>/worker) when
// they stop; `node bench/profile-summary.mjs <dir>/api` prints where the time went. Profiling slows them down.
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE;
/** When each profiled process started (ms): the bench logs each load's window in its profile. */
const PROFILED_SINCE = {};
/** With BENCH_CPU_PROFILE, logs the window of the API's profile a load ran in (for profile-summary.mjs). */
function profileWindow(name, startedAt) {
  if (!PROFILE_DIR) return;
  const since = (t) => ((t - PROFILED_SINCE.api) / 1000).toFixed(1);
  log(`${name}: the API's profile window ${since(startedAt)}-${since(Date.now())}`);
}
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const RUN = randomBytes(4).toString('hex');
const DB_NAME = `bench_${RUN}`;
const REDIS_PREFIX = `bench${RUN}`;
/** The users of an app, and the webhook deliveries (all, and not yet succeeded), in one snapshot. */
const tallySql = (appId) =>
  `SELECT (SELECT count(*)::int FROM users WHERE app_id = '${appId}') AS users,
          count(*)::int AS total, (count(*) FILTER (WHERE status <> 'succeeded'))::int AS unsettled FROM webhook_deliveries`;
const TARGETS = {
  list: 0.75,
  deploy: 0.5,
  webhooks: 0.5,
  p99Ms: 1000,
  collect: 0.5,
  /** Load 4 with props and country lookups: its ratio at least this share of the plain beacons' (issue 47: within 10 %). */
  collectProps: 0.9,
  aggregateTimeRatio: 1.5,
  page: 0.6,
  script: 0.7,
  landing: 0.6,
  signup: 0.3,
  /** Chat completions through the platform against the upstream called directly (issue 48). */
  gateway: 0.7,
  /** CPU per request of a published landing page under a split test, over the same without one (issue 49): at most. */
  splitCpu: 1.1,
  /** A function's answers through the platform against the same module under bare `deno serve` (issue 46). */
  functions: 0.5,
  /** The first request of a new deployment's function, p50 (issue 46). */
  coldStartMs: 300,
  /** Every process's resident set, at its peak (issue 35). */
  rssMiB: 250,
};
const ONLY = process.env.BENCH_ONLY;
/** Load 4 with custom events, props and a country lookup (see loadCollect). */
if (ONLY !== undefined && !['sites', 'visitor', 'collect', 'signup', 'gateway', 'webhooks', 'split', 'functions', 'aggregate'].includes(ONLY))
  throw new Error(`BENCH_ONLY is sites, visitor, collect, signup, gateway, webhooks, split, functions or aggregate (got ${ONLY})`);
/** Load 12's upstream answers after this long, as a model takes time (its first token, in a stream); a second upstream answers at once. */
const UPSTREAM_LATENCY_MS = Number(process.env.BENCH_UPSTREAM_LATENCY_MS ?? 100);
const SITES_DOMAIN = 'sites.bench.test';
const SITE_CACHE_BYTES = 64 * 1024 * 1024;
const BROWSER = process.env.BENCH_UA ?? 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SMALL_EVENTS = 100_000;
const LARGE_EVENTS = 2_000_000;

const children = [];
/** The bench account's API key, once made. */
const BENCH_KEY = { value: '' };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const log = (msg) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address();
  await new Promise((r) => server.close(r));
  return port;
}

function databaseUrl(name) {
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

const adminQuery = (text) => sql(BASE_DATABASE_URL, text);

/** Peak resident set size of a process so far, in MiB (Linux: VmHWM). */
function peakRssMiB(pid) {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

async function waitReady(url, what, timeoutMs = 180_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const ok = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${what} did not become ready at ${url}`);
}

/** `node dist/main.js` in a role, as production runs it (npm run start:api / start:worker, the Dockerfile): logs at the default level, to /dev/null. */
async function startService(role, env) {
  const port = await freePort();
  const profile = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${join(PROFILE_DIR, role)}`] : [];
  const child = spawn(process.execPath, [...V8_HEAP_FLAGS, ...profile, join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env, APP_ROLE: role, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', process.env.BENCH_SERVICE_LOG ? 'inherit' : 'ignore', 'inherit'],
  });
  children.push(child);
  PROFILED_SINCE[role] = Date.now();
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url, `the ${role} process`);
  return { child, url };
}

/** SIGTERM, then SIGKILL if the process has not exited within 15 s. */
async function stopProcess(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The bench's own queries, on one kept connection per database: a connection each would add backends' start-up to the database's CPU. */
const sqlPools = new Map();
async function sql(url, text) {
  if (!sqlPools.has(url))
    sqlPools.set(
      url,
      new pg.Pool({ connectionString: url, max: 1 }).on('error', () => undefined),
    );
  return (await sqlPools.get(url).query(text)).rows;
}

async function endSqlPools() {
  const pools = [...sqlPools.values()];
  sqlPools.clear();
  await Promise.all(pools.map((pool) => pool.end()));
}

function forkReady(script, env = {}) {
  const child = fork(join(import.meta.dirname, script), { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.once('message', (msg) => resolve({ child, msg }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/**
 * wrk (Debian's `wrk`, a C load generator) as an outside client meets the served files: one thread, 16 keep-alive
 * connections, a browser's request headers. autocannon, in Node, parses a 47 KB answer slower than either server
 * sends it, so it read ratios near 1 where the servers differ (issue 45). The figures of `summary`.
 */
async function wrk({ url, headers = {}, duration = SECONDS, script }) {
  const args = [
    '-t1',
    '-c16',
    `-d${duration}s`,
    '--latency',
    ...(script ? ['-s', script] : []),
    // wrk sends its own `Host` unless given one spelled so: a lower-case `host` would go out beside it, first or not.
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k.toLowerCase() === 'host' ? 'Host' : k}: ${v}`]),
    url,
  ];
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  const code = await new Promise((resolve, reject) => {
    child.once('error', (err) => reject(err.code === 'ENOENT' ? new Error('loads 7–9 need wrk: apt-get install wrk') : err));
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`wrk exited with ${code}: ${out}`);
  const ms = (text) => {
    const [, n, unit] = /([\d.]+)(us|ms|s)/.exec(text);
    return +(Number(n) * { us: 0.001, ms: 1, s: 1000 }[unit]).toFixed(2);
  };
  const total = Number(/(\d+) requests in/.exec(out)[1]);
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + (/Socket errors:/.test(out) ? 1 : 0);
  return {
    reqPerSec: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])),
    p50Ms: ms(/^\s+50%\s+(\S+)/m.exec(out)[1]),
    p99Ms: ms(/^\s+99%\s+(\S+)/m.exec(out)[1]),
    ok: total - failed,
    failed,
    total,
    output: out,
  };
}

/** `compare` with wrk as the client (loads 7–9): the same warm-up and order, and each process's CPU per request. */
async function compareWrk(name, serviceUrl, referenceUrl, headers, pids) {
  const results = {};
  for (const [label, url] of [
    ['reference', referenceUrl],
    ['service', serviceUrl],
  ]) {
    await databaseAtRest(name);
    await wrk({ url, headers, duration: 2 });
    const cpuBefore = cpuMs(pids[label]);
    const startedAt = Date.now();
    const { reqPerSec, p50Ms, p99Ms, ok, failed, total } = await wrk({ url, headers });
    const figures = { reqPerSec, p50Ms, p99Ms, ok, failed };
    if (label === 'service') profileWindow(name, startedAt);
    results[label] = { ...figures, cpuUsPerRequest: Math.round(((cpuMs(pids[label]) - cpuBefore) * 1000) / total) };
    if (figures.failed > 0) {
      const statuses = (await wrk({ url, headers, duration: 2, script: join(import.meta.dirname, 'wrk-statuses.lua') })).output.match(/^status .*$/gm);
      throw new Error(`${name}: ${label} answered ${figures.failed} requests with errors (again, for 2 s: ${statuses?.join(', ')})`);
    }
    log(`${name}: ${label} ${figures.reqPerSec} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ${results[label].cpuUsPerRequest} µs CPU per request`);
  }
  return { ...results, ratio: +(results.service.reqPerSec / results.reference.reqPerSec).toFixed(2) };
}

function cannon(opts) {
  return new Promise((resolve, reject) => autocannon({ connections: CONNECTIONS, duration: SECONDS, ...opts }, (err, r) => (err ? reject(err) : resolve(r))));
}

async function http(url, method, token, body) {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => undefined);
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const summary = (r) => ({
  reqPerSec: Math.round(r.requests.average),
  p50Ms: r.latency.p50,
  p99Ms: r.latency.p99,
  ok: r['2xx'],
  failed: r.non2xx + r.errors + r.timeouts,
});

/** CPU time a process has used so far, in ms (Linux: utime + stime of /proc/<pid>/stat). */
function cpuMs(pid) {
  const fields = procStat(pid);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 : null; // clock ticks of 10 ms
}

/**
 * Waits (up to a minute) while PostgreSQL's autovacuum works, so that neither side of a comparison shares the
 * cores with it: PostgreSQL vacuums a table after enough inserts, such as load 5's two million seeded rows.
 */
async function databaseAtRest(name) {
  const since = Date.now();
  const busy = async () => (await adminQuery(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'`))[0].n > 0;
  while (Date.now() - since < 60_000 && (await busy())) await sleep(500);
  if (Date.now() - since > 1000) log(`${name}: waited ${((Date.now() - since) / 1000).toFixed(1)} s for autovacuum`);
}

/**
 * Same load on both servers, reference first, after a short warm-up of each. With `pids`, also each
 * process's CPU time per request (µs), which the machine's noise moves less than the rates.
 */
async function compare(name, serviceUrl, referenceUrl, request, pids = {}) {
  const results = {};
  for (const [label, url] of [
    ['reference', referenceUrl],
    ['service', serviceUrl],
  ]) {
    await databaseAtRest(name);
    await cannon({ url, ...request, duration: 2 });
    const cpuBefore = pids[label] ? cpuMs(pids[label]) : null;
    const startedAt = Date.now();
    const r = await cannon({ url, ...request });
    if (label === 'service') profileWindow(name, startedAt);
    results[label] = summary(r);
    if (cpuBefore !== null) results[label].cpuUsPerRequest = Math.round(((cpuMs(pids[label]) - cpuBefore) * 1000) / r.requests.total);
    if (results[label].failed > 0) throw new Error(`${name}: ${label} answered ${results[label].failed} requests with errors`);
    const cpu = results[label].cpuUsPerRequest === undefined ? '' : `, ${results[label].cpuUsPerRequest} µs CPU per request`;
    log(`${name}: ${label} ${results[label].reqPerSec} req/s, p50 ${results[label].p50Ms} ms, p99 ${results[label].p99Ms} ms${cpu}`);
  }
  return { ...results, ratio: +(results.service.reqPerSec / results.reference.reqPerSec).toFixed(2) };
}

function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

function ask(receiver, question) {
  return new Promise((resolve) => {
    receiver.once('message', resolve);
    receiver.send(question);
  });
}

/** Waits until the receiver has `count` distinct events (or the time runs out); returns all it recorded. */
async function drain(receiver, count, timeoutMs) {
  const end = Date.now() + timeoutMs;
  // Polls with a count only: shipping every arrival each time would load the process being measured.
  while ((await ask(receiver, 'count')).unique < count && Date.now() < end) await sleep(250);
  return ask(receiver, 'stats');
}

/** The Redis server's pid (it runs on this machine: the bench reads its CPU time). */
async function redisServerPid() {
  const redis = new Redis(REDIS_URL);
  try {
    return Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
  } finally {
    redis.disconnect();
  }
}

/**
 * The CPU each process spends on a drain, per delivery (µs): the worker, the receiver, Redis and, given a
 * database, the PostgreSQL backends. Read from the worker being ready to the drain's end.
 */
async function drainCpu(pids, databaseUrl) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  const dbBefore = databaseUrl ? await databaseCpu(databaseUrl) : null;
  return {
    async perDelivery(count) {
      const us = (ms) => Math.round((ms * 1000) / count);
      const out = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, us(cpuMs(pid) - before[name])]));
      if (dbBefore) out.postgres = us(databaseCpuSince(dbBefore, await databaseCpu(databaseUrl)));
      return out;
    },
  };
}

/** A backlog drained by one worker: deliveries per second from its first delivery to its last. */
function drainFigures(stats, backlog) {
  // Arrivals are recorded in order.
  const seconds = stats.arrivals.length > 1 ? (stats.arrivals.at(-1) - stats.arrivals[0]) / 1000 : null;
  return {
    backlog,
    delivered: stats.unique,
    drainSeconds: seconds === null ? null : +seconds.toFixed(1),
    deliveriesPerSec: seconds ? Math.round(stats.unique / seconds) : 0,
    duplicates: stats.duplicates,
    invalidSignatures: stats.invalid,
  };
}

async function main() {
  const started = Date.now();
  log(`database ${DB_NAME} on ${new URL(BASE_DATABASE_URL).host}, Redis prefix ${REDIS_PREFIX}`);
  await adminQuery(`CREATE DATABASE ${DB_NAME}`);
  const DATABASE_URL = databaseUrl(DB_NAME);
  // Load 12's upstreams, before the API: its AI_PROVIDERS_FILE points at them.
  const upstreams = {};
  for (const [name, latency] of [
    ['llm', UPSTREAM_LATENCY_MS],
    ['instant', 0],
  ]) {
    const port = await freePort();
    const { child } = await forkReady('reference/openai-upstream.mjs', { PORT: String(port), LATENCY_MS: String(latency) });
    upstreams[name] = { url: `http://127.0.0.1:${port}`, pid: child.pid, latencyMs: latency };
  }
  const env = {
    DATABASE_URL,
    REDIS_URL,
    REDIS_PREFIX,
    ADMIN_TOKEN,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64url'),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    RATE_LIMIT_MAX: '1000000000', // throttling stays on (a Redis count per request) but never refuses
    RATE_LIMIT_AI_MAX: '1000000000', // the same for the AI routes (load 12)
    TRUST_PROXY: '127.0.0.1', // load 4 sends each beacon from its own visitor (X-Forwarded-For)
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DATA_DIR: join(os.tmpdir(), `bench-${RUN}`),
    PLANS_FILE: writeBenchPlans(),
    WEBHOOK_CONCURRENCY: String(WEBHOOK_CONCURRENCY),
    SITES_DOMAIN, // loads 7–9: sites at <label>.sites.bench.test, asked with that Host
    SITE_CACHE_BYTES: String(SITE_CACHE_BYTES),
    AI_PROVIDERS_FILE: writeBenchProviders(upstreams), // load 12: the gateway in front of the upstream stubs
  };
  // The API runs the migrations; the worker starts in load 3, on a backlog.
  const api = await startService('api', env);
  log(`API pid ${api.child.pid} at ${api.url}`);

  const { accountId, apiKey } = await http(`${api.url}/v1/admin/accounts`, 'POST', ADMIN_TOKEN, { email: `bench-${RUN}@example.com` });
  BENCH_KEY.value = apiKey;
  // A plan with no quota and limits it never reaches: metering and rate limiting run, nothing is refused.
  await http(`${api.url}/v1/admin/accounts/${accountId}/plan`, 'PUT', ADMIN_TOKEN, { plan: 'bench' });
  const apps = [];
  for (let i = 0; i < 20; i++) apps.push(await http(`${api.url}/v1/apps`, 'POST', apiKey, { name: `Bench app ${i}`, description: 'Seeded by npm run bench' }));

  if (ONLY === 'gateway') {
    const gateway = await loadGateway(api, apiKey, upstreams);
    console.log(`\n${gatewayTable(gateway)}\n`);
    writeResults({ date: new Date().toISOString(), machine: machine(), only: ONLY, gateway, durationSec: Math.round((Date.now() - started) / 1000) });
    return;
  }
  if (ONLY === 'webhooks') {
    const { webhooks, nothingLost, workerPeakRssLoad3 } = await loadWebhooks(api, apiKey, apps, env);
    const met = webhooks.ratio >= TARGETS.webhooks;
    console.log(
      `\nload 3: ${webhooks.service.deliveriesPerSec} /s against ${webhooks.reference.deliveriesPerSec} /s: ratio ${webhooks.ratio} (≥ ${TARGETS.webhooks}: ${met ? 'met' : 'NOT met'}); p99 event→attempt ${webhooks.atHalfRate.p99Ms} ms; nothing lost: ${nothingLost}; worker peak ${workerPeakRssLoad3} MiB\n`,
    );
    writeResults({
      date: new Date().toISOString(),
      machine: machine(),
      only: ONLY,
      webhooks,
      nothingLost,
      workerPeakRssMiB: workerPeakRssLoad3,
      durationSec: Math.round((Date.now() - started) / 1000),
    });
    return;
  }
  if (ONLY === 'collect' || ONLY === 'signup') {
    const visitor = await loadVisitorWrites(api.url, api.child.pid, DATABASE_URL, accountId, apps, env, ONLY);
    console.log(`\n${visitorTable(visitor)}\n`);
    writeResults({ date: new Date().toISOString(), machine: machine(), only: ONLY, ...visitor, durationSec: Math.round((Date.now() - started) / 1000) });
    return;
  }
  if (ONLY === 'functions') {
    const functions = await loadFunctions(api, apiKey, apps[12].appId);
    console.log(`\n${functionsTable(functions)}\n`);
    writeResults({ date: new Date().toISOString(), machine: machine(), only: ONLY, functions, durationSec: Math.round((Date.now() - started) / 1000) });
    return;
  }
  if (ONLY === 'aggregate') {
    const aggregate = await loadAggregate(api.url, DATABASE_URL, apiKey, apps[4].appId, apps[5].appId);
    console.log(`\nload 5: ${JSON.stringify(aggregate)}\n`);
    writeResults({ date: new Date().toISOString(), machine: machine(), only: ONLY, aggregate, durationSec: Math.round((Date.now() - started) / 1000) });
    return;
  }
  if (ONLY === 'split') {
    const split = await loadSplit(api, apiKey, apps[7].appId);
    console.log(`\n${splitTable(split)}\n`);
    writeResults({ date: new Date().toISOString(), machine: machine(), only: ONLY, split, durationSec: Math.round((Date.now() - started) / 1000) });
    return;
  }
  if (ONLY) {
    const visitor = ONLY === 'visitor' ? await loadVisitorWrites(api.url, api.child.pid, DATABASE_URL, accountId, apps, env) : {};
    const sites = await loadSites(api, apiKey, apps);
    console.log(`\n${visitor.collect ? `${visitorTable(visitor)}\n\n` : ''}${sitesTable(sites)}\n`);
    writeResults({ date: new Date().toISOString(), machine: machine(), only: ONLY, ...visitor, sites, durationSec: Math.round((Date.now() - started) / 1000) });
    return;
  }
  const refPort = await freePort();
  await forkReady('reference/apps-server.mjs', { DATABASE_URL, ACCOUNT_ID: accountId, PORT: String(refPort), SERVICE_URL: api.url });
  const refUrl = `http://127.0.0.1:${refPort}`;
  const auth = { authorization: `Bearer ${apiKey}` };

  // The reference must do the same work: same rows, same JSON.
  const [mine, theirs] = await Promise.all([http(`${api.url}/v1/apps?limit=20`, 'GET', apiKey), http(`${refUrl}/v1/apps?limit=20`, 'GET', apiKey)]);
  if (JSON.stringify(mine) !== JSON.stringify(theirs) || mine.data.length !== 20)
    throw new Error('the reference answers GET /v1/apps differently from the service');

  log(`load 1: GET /v1/apps?limit=20, ${CONNECTIONS} connections, ${SECONDS} s each`);
  const list = await compare('load 1', `${api.url}/v1/apps?limit=20`, `${refUrl}/v1/apps?limit=20`, { headers: auth });
  const apiPeakRssLoad1 = peakRssMiB(api.child.pid);
  // The framework's floor (no target): NestJS on Fastify with the same SQL and nothing else.
  const floorPort = await freePort();
  const { child: floorChild } = await forkReady('reference/nest-floor.mjs', {
    DATABASE_URL,
    ACCOUNT_ID: accountId,
    PORT: String(floorPort),
    SERVICE_URL: api.url,
  });
  const floorUrl = `http://127.0.0.1:${floorPort}/v1/apps?limit=20`;
  await cannon({ url: floorUrl, duration: 2 });
  const floor = summary(await cannon({ url: floorUrl }));
  if (floor.failed > 0) throw new Error(`load 1: the NestJS floor answered ${floor.failed} requests with errors`);
  list.nestFloor = { ...floor, ratio: +(floor.reqPerSec / list.reference.reqPerSec).toFixed(2) };
  log(`load 1: NestJS floor ${floor.reqPerSec} req/s (ratio ${list.nestFloor.ratio}), p50 ${floor.p50Ms} ms, p99 ${floor.p99Ms} ms`);
  await stopProcess(floorChild);

  log(`load 2: POST /v1/apps/deploy, ${CONNECTIONS} connections, ${SECONDS} s each`);
  const deployBody = JSON.stringify({ appId: apps[0].appId, env: 'production' });
  const deploy = await compare('load 2', `${api.url}/v1/apps/deploy`, `${refUrl}/v1/apps/deploy`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: deployBody,
  });

  const { webhooks, serviceHalf, nothingLost, usersCreated, tally, seen, workerPeakRssLoad3 } = await loadWebhooks(api, apiKey, apps, env);
  const { collect, signup } = await loadVisitorWrites(api.url, api.child.pid, DATABASE_URL, accountId, apps, env);
  const aggregate = await loadAggregate(api.url, DATABASE_URL, apiKey, apps[4].appId, apps[5].appId);
  const sites = await loadSites(api, apiKey, apps);
  const gateway = await loadGateway(api, apiKey, upstreams);
  const functions = await loadFunctions(api, apiKey, apps[12].appId);

  const results = {
    date: new Date().toISOString(),
    machine: machine(),
    settings: { seconds: SECONDS, webhookSeconds: WEBHOOK_SECONDS, connections: CONNECTIONS, logLevel: 'info (default)' },
    list,
    deploy,
    webhooks,
    collect,
    signup,
    aggregate,
    sites,
    gateway,
    functions,
    peakRssMiB: { apiUnderLoad1: apiPeakRssLoad1, workerUnderLoad3: workerPeakRssLoad3 },
    targets: {
      list: { target: TARGETS.list, met: list.ratio >= TARGETS.list },
      deploy: { target: TARGETS.deploy, met: deploy.ratio >= TARGETS.deploy },
      webhooks: { target: TARGETS.webhooks, met: webhooks.ratio >= TARGETS.webhooks },
      webhookP99AtHalfRate: { target: TARGETS.p99Ms, met: serviceHalf.p99Ms !== null && serviceHalf.p99Ms < TARGETS.p99Ms },
      nothingLost: {
        met: nothingLost,
        usersCreated,
        deliveries: tally.total,
        unsettled: tally.unsettled,
        received: seen.everUnique,
        duplicates: seen.everDuplicates,
      },
      collect: { target: TARGETS.collect, met: collect.ratio >= TARGETS.collect && collect.nothingLost },
      collectProps: { target: TARGETS.collectProps, met: collect.withProps.ofPlain >= TARGETS.collectProps && collect.withProps.nothingLost },
      aggregate: { target: TARGETS.aggregateTimeRatio, met: aggregate.timeRatio <= TARGETS.aggregateTimeRatio },
      aggregateGoal: { target: TARGETS.aggregateTimeRatio, met: aggregate.goal.timeRatio <= TARGETS.aggregateTimeRatio },
      signup: signup.target,
      gateway: gateway.target,
      functions: functions.target,
    },
    durationSec: Math.round((Date.now() - started) / 1000),
  };
  console.log(
    `\n${table(results)}\n\n${visitorTable({ collect, signup })}\n\n${sitesTable(sites)}\n\n${gatewayTable(gateway)}\n\n${functionsTable(functions)}\n`,
  );
  writeResults(results);
}

/** Load 3: user.created events → signed deliveries to a receiver in its own process, against a bare Bull worker. */
async function loadWebhooks(api, apiKey, apps, env) {
  const { DATABASE_URL } = env;
  const auth = { authorization: `Bearer ${apiKey}` };
  const {
    child: receiver,
    msg: { port: receiverPort },
  } = await forkReady('receiver.mjs');
  const receiverUrl = `http://127.0.0.1:${receiverPort}/hooks`;
  const endpoint = await http(`${api.url}/v1/webhook-endpoints`, 'POST', apiKey, { url: receiverUrl, events: ['user.created'] });
  receiver.send({ secrets: [endpoint.secret] });
  const usersApp = apps[1].appId;
  // Each request a new user (a new e-mail), so each one is a user.created event.
  let userSeq = 0;
  const createUsers = (opts) => ({
    url: api.url,
    connections: 8,
    duration: WEBHOOK_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/v1/users',
        headers: { ...auth, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ appId: usersApp, email: `u${userSeq++}-${RUN}@bench.example` }) }),
      },
    ],
    ...opts,
  });
  const mustSucceed = (name, r) => {
    if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors, ${r.timeouts} timeouts`);
    return r;
  };

  // 3a. The API alone turns requests into events: with no worker running, a backlog builds up.
  log(`load 3: users created through the API for ${WEBHOOK_SECONDS} s, no worker yet (the backlog)`);
  receiver.send('reset');
  const flood = mustSucceed('load 3', await cannon(createUsers()));
  const eventsPerSec = Math.round(flood['2xx'] / WEBHOOK_SECONDS);
  const [{ count: backlogCount }] = await sql(DATABASE_URL, `SELECT count(*)::int AS count FROM webhook_deliveries WHERE status = 'pending'`);
  log(`load 3: ${eventsPerSec} events/s through the API; ${backlogCount} deliveries pending`);

  // 3b. A worker drains that backlog: signs, POSTs, records each attempt.
  const redisPid = await redisServerPid();
  const worker = await startService('worker', env);
  const serviceCpu = await drainCpu({ worker: worker.child.pid, receiver: receiver.pid, redis: redisPid }, DATABASE_URL);
  let stats = await drain(receiver, backlogCount, 180_000);
  const serviceDrain = { ...drainFigures(stats, backlogCount), cpuUsPerDelivery: await serviceCpu.perDelivery(backlogCount) };
  log(
    `load 3: service worker ${serviceDrain.deliveriesPerSec} deliveries/s (${serviceDrain.delivered}/${backlogCount} in ${serviceDrain.drainSeconds} s); CPU µs a delivery ${JSON.stringify(serviceDrain.cpuUsPerDelivery)}`,
  );

  // 3c. End to end at half the lesser of the two maximum rates: latency from event to first attempt.
  const halfRate = Math.max(1, Math.floor(Math.min(eventsPerSec, serviceDrain.deliveriesPerSec) / 2));
  log(`load 3: ${halfRate} events/s for ${WEBHOOK_SECONDS} s, API and worker running, latency from event to first attempt`);
  receiver.send('reset');
  const steady = mustSucceed('load 3 at half rate', await cannon(createUsers({ overallRate: halfRate })));
  stats = await drain(receiver, steady['2xx'], 60_000);
  const serviceHalf = {
    eventsPerSec: Math.round(steady['2xx'] / WEBHOOK_SECONDS),
    produced: steady['2xx'],
    delivered: stats.unique,
    duplicates: stats.duplicates,
    p50Ms: percentile(stats.firstAttemptLatencies, 50),
    p99Ms: percentile(stats.firstAttemptLatencies, 99),
  };
  log(
    `load 3: at ${serviceHalf.eventsPerSec} events/s p50 ${serviceHalf.p50Ms} ms, p99 ${serviceHalf.p99Ms} ms, ${serviceHalf.delivered}/${serviceHalf.produced} delivered`,
  );
  // Nothing lost: every user the API created (one user.created each) has a delivery, every delivery
  // has succeeded, and the receiver saw each event exactly once. Users are counted in the database
  // (autocannon does not count the answers still in flight when it stops), a second after the load so
  // those requests have committed, and in the same snapshot as the deliveries; the tally waits for the
  // last events still being dispatched, or one side would count deliveries the other does not yet.
  await sleep(1000);
  let [tally] = await sql(DATABASE_URL, tallySql(usersApp));
  for (let i = 0; i < 120 && (tally.unsettled > 0 || tally.total < tally.users); i++) {
    await sleep(250);
    [tally] = await sql(DATABASE_URL, tallySql(usersApp));
  }
  const usersCreated = tally.users;
  const seen = await ask(receiver, 'stats');
  const nothingLost = tally.total === usersCreated && tally.unsettled === 0 && seen.everUnique === usersCreated && seen.everDuplicates === 0;
  const workerPeakRssLoad3 = peakRssMiB(worker.child.pid);
  await stopProcess(worker.child);

  // 3d. The reference drains a backlog of the same size: Bull jobs with the same bodies, a bare worker.
  const refSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const queuePrefix = `${REDIS_PREFIX}ref`;
  const queue = new Bull('reference-webhooks', REDIS_URL, { prefix: queuePrefix });
  for (let i = 0; i < backlogCount; i += 1000) {
    await queue.addBulk(
      Array.from({ length: Math.min(1000, backlogCount - i) }, (_, j) => {
        const id = `evt_${RUN}${String(i + j).padStart(8, '0')}`;
        const body = JSON.stringify({
          id,
          event: 'user.created',
          createdAt: new Date().toISOString(),
          data: { id: `usr_${id}`, appId: usersApp, email: `${id}@bench.example` },
        });
        return { name: 'deliver', data: { id, body }, opts: { jobId: id, attempts: 4, backoff: { type: 'exponential', delay: 1000 }, removeOnComplete: true } };
      }),
    );
  }
  await queue.close();
  receiver.send({ secrets: [refSecret] });
  receiver.send('reset');
  const { child: referenceWorker } = await forkReady('reference/webhook-worker.mjs', {
    REDIS_URL,
    QUEUE_PREFIX: queuePrefix,
    TARGET_URL: receiverUrl,
    SECRET: refSecret,
    CONCURRENCY: String(WEBHOOK_CONCURRENCY),
  });
  const referenceCpu = await drainCpu({ worker: referenceWorker.pid, receiver: receiver.pid, redis: redisPid });
  stats = await drain(receiver, backlogCount, 120_000);
  const reference = { ...drainFigures(stats, backlogCount), cpuUsPerDelivery: await referenceCpu.perDelivery(backlogCount) };
  log(
    `load 3: reference worker ${reference.deliveriesPerSec} deliveries/s (${reference.delivered}/${backlogCount} in ${reference.drainSeconds} s); CPU µs a delivery ${JSON.stringify(reference.cpuUsPerDelivery)}`,
  );

  const webhooks = {
    apiEventsPerSec: eventsPerSec,
    service: serviceDrain,
    reference,
    ratio: +(serviceDrain.deliveriesPerSec / reference.deliveriesPerSec).toFixed(2),
    atHalfRate: { ...serviceHalf, eventsPerSecAsked: halfRate },
  };
  return { webhooks, serviceHalf, nothingLost, usersCreated, tally, seen, workerPeakRssLoad3 };
}

function machine() {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    ramGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
  };
}

function writeResults(results) {
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `${results.date.slice(0, 10)}${results.only ? `-${results.only}` : ''}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`written to ${file} (${results.durationSec} s)`);
}

function table(r) {
  const yes = (t) => (t.met ? 'met' : 'NOT met');
  const rows = [
    ['Load', 'Service', 'Reference', 'Ratio', 'Target'],
    [
      '1. GET /v1/apps?limit=20',
      `${r.list.service.reqPerSec} req/s (p50 ${r.list.service.p50Ms} / p99 ${r.list.service.p99Ms} ms)`,
      `${r.list.reference.reqPerSec} req/s (p50 ${r.list.reference.p50Ms} / p99 ${r.list.reference.p99Ms} ms)`,
      r.list.ratio,
      `≥ ${TARGETS.list}: ${yes(r.targets.list)}`,
    ],
    [
      '1. NestJS floor (no target)',
      `${r.list.nestFloor.reqPerSec} req/s (p50 ${r.list.nestFloor.p50Ms} / p99 ${r.list.nestFloor.p99Ms} ms)`,
      '',
      r.list.nestFloor.ratio,
      'the most a Nest app reaches here',
    ],
    [
      '2. POST /v1/apps/deploy',
      `${r.deploy.service.reqPerSec} req/s (p50 ${r.deploy.service.p50Ms} / p99 ${r.deploy.service.p99Ms} ms)`,
      `${r.deploy.reference.reqPerSec} req/s (p50 ${r.deploy.reference.p50Ms} / p99 ${r.deploy.reference.p99Ms} ms)`,
      r.deploy.ratio,
      `≥ ${TARGETS.deploy}: ${yes(r.targets.deploy)}`,
    ],
    [
      '3. Webhook deliveries',
      `${r.webhooks.service.deliveriesPerSec} /s (backlog of ${r.webhooks.service.backlog}; API: ${r.webhooks.apiEventsPerSec} events/s)`,
      `${r.webhooks.reference.deliveriesPerSec} /s`,
      r.webhooks.ratio,
      `≥ ${TARGETS.webhooks}: ${yes(r.targets.webhooks)}`,
    ],
    [
      '3. end to end, half rate',
      `${r.webhooks.atHalfRate.eventsPerSec} events/s: p50 ${r.webhooks.atHalfRate.p50Ms} / p99 ${r.webhooks.atHalfRate.p99Ms} ms`,
      '',
      '',
      `p99 < ${TARGETS.p99Ms} ms: ${yes(r.targets.webhookP99AtHalfRate)}`,
    ],
    [
      '5. aggregate, 30 days',
      `${r.aggregate.large.meanMs} ms with ${r.aggregate.large.events} raw events`,
      `${r.aggregate.small.meanMs} ms with ${r.aggregate.small.events}`,
      r.aggregate.timeRatio,
      `time ratio ≤ ${TARGETS.aggregateTimeRatio}: ${yes(r.targets.aggregate)}`,
    ],
    [
      '5. goal conversions, props filter, 30 days',
      `${r.aggregate.goal.large.meanMs} ms with ${r.aggregate.goal.large.events} raw events`,
      `${r.aggregate.goal.small.meanMs} ms with ${r.aggregate.goal.small.events}`,
      r.aggregate.goal.timeRatio,
      `time ratio ≤ ${TARGETS.aggregateTimeRatio}: ${yes(r.targets.aggregateGoal)}`,
    ],
    [
      '6. Peak RSS',
      `API ${r.peakRssMiB.apiUnderLoad1} MiB (load 1), worker ${r.peakRssMiB.workerUnderLoad3} MiB (load 3)`,
      '',
      '',
      `< ${TARGETS.rssMiB} MiB: ${yes({ met: Math.max(r.peakRssMiB.apiUnderLoad1, r.peakRssMiB.workerUnderLoad3) < TARGETS.rssMiB })}; nothing lost: ${yes(r.targets.nothingLost)}`,
    ],
  ];
  return markdown(rows);
}

/** Rows (the first: the header) as a Markdown table, columns padded. */
function markdown(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  const line = (row) => `| ${row.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`;
  return [line(rows[0]), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/** Loads 4 and 11: what visitors write — beacons and sign-ups. */
function visitorTable({ collect, signup }) {
  const yes = (met) => (met ? 'met' : 'NOT met');
  return markdown([
    ['Load', 'Service', 'Reference', 'Ratio', 'Target'],
    ...(collect
      ? [
          [
            '4. POST /collect',
            `${collect.service.reqPerSec} req/s (p50 ${collect.service.p50Ms} / p99 ${collect.service.p99Ms} ms), ${collect.written} of ${collect.accepted} taken written; ${collect.service.stitchedPerSec} beacons/s taken until stitched (the last ${collect.drainSeconds} s after the load)`,
            `${collect.reference.reqPerSec} req/s (p50 ${collect.reference.p50Ms} / p99 ${collect.reference.p99Ms} ms)`,
            `${collect.ratio} (until stitched ${collect.stitchedRatio})`,
            `≥ ${TARGETS.collect}, nothing lost: ${yes(collect.ratio >= TARGETS.collect && collect.nothingLost)}`,
          ],
          ...(collect.withProps
            ? [
                [
                  '4. with props and countries',
                  `${collect.withProps.service.reqPerSec} req/s, ${collect.withProps.written} of ${collect.withProps.accepted} taken written`,
                  `${collect.withProps.reference.reqPerSec} req/s`,
                  `${collect.withProps.ratio} (${collect.withProps.ofPlain} of the plain round's)`,
                  `≥ ${TARGETS.collectProps} of the plain round's, nothing lost: ${yes(collect.withProps.ofPlain >= TARGETS.collectProps && collect.withProps.nothingLost)}`,
                ],
              ]
            : []),
        ]
      : []),
    ...(signup
      ? [
          [
            '11. sign-up form posts',
            `${signup.service.reqPerSec} req/s answered (p50 ${signup.service.p50Ms} / p99 ${signup.service.p99Ms} ms); ${signup.sustainedPerSec} users/s written (all ${signup.written} of ${signup.accepted} within ${signup.drainSeconds} s)`,
            `${signup.reference.reqPerSec} req/s (p50 ${signup.reference.p50Ms} / p99 ${signup.reference.p99Ms} ms)`,
            signup.ratio,
            `≥ ${TARGETS.signup}, every user written: ${yes(signup.target.met)}`,
          ],
        ]
      : []),
  ]);
}

/** POSTs each from its own visitor (`X-Forwarded-For` 10.x.y.z, numbered by `seq` across calls): `make(n)` gives the nth's headers and body. */
function fromEachVisitor(seq, make) {
  return {
    method: 'POST',
    requests: [
      {
        setupRequest: (req) => {
          const n = seq.n++;
          const { headers, body } = make(n);
          return { ...req, headers: { 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`, ...headers }, body };
        },
      },
    ],
  };
}

/**
 * Load 4: beacons to POST /collect (each from its own visitor) against a bare Fastify + pg that batches the same rows.
 * The API only appends them to the analytics inbox; a worker (started here, as production runs one) stitches visits
 * and rollups from it. The ratio is beacons taken per second during the load; beside it, the beacons taken over the
 * time until the last of them was stitched (in analytics_events), as load 11 gives users written.
 */
async function loadCollect(serviceUrl, servicePid, databaseUrl, serviceAppId, referenceAppId, env, withProps = false) {
  const refPort = await freePort();
  const { child: reference } = await forkReady('reference/collect-server.mjs', { DATABASE_URL: databaseUrl, PORT: String(refPort) });
  const worker = await startService('worker', env);
  const browsers = Array.from({ length: 20 }, (_, i) => `Mozilla/5.0 (X11; Linux x86_64; rv:${100 + i}.0) Gecko/20100101 Firefox/${100 + i}.0`);
  const seq = { n: 0 };
  // withProps (issue 47): custom events with props, each from a public address the GeoIP database places (81.2.0.0/16,
  // GB): the props' rollups and the country lookup on the path, compared with the plain beacons' round.
  const beacons = (appId) =>
    fromEachVisitor(seq, (n) => ({
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': browsers[n % 20],
        ...(withProps ? { 'x-forwarded-for': `81.2.${(n >> 8) & 255}.${n & 255}` } : {}),
      },
      body: JSON.stringify(
        withProps
          ? {
              appId,
              name: 'Download',
              url: `https://bench.example/page/${n % 50}?utm_source=bench`,
              props: { plan: ['free', 'pro', 'team'][n % 3], button: `b${n % 20}` },
            }
          : { appId, name: 'pageview', url: `https://bench.example/page/${n % 50}?utm_source=bench`, screenWidth: 1280 },
      ),
    }));
  const writtenOf = async (appId) => (await sql(databaseUrl, `SELECT count(*)::int AS n FROM analytics_events WHERE app_id = '${appId}'`))[0].n;
  /** Waits until `count` events of the app are stitched: the seconds since `since` it took, or null after 120 s. */
  const stitchedBy = async (appId, count, since) => {
    while (Date.now() - since < 120_000) {
      // The inbox empty first (a cheap look), then the count: the buffer may still hold the last second's beacons.
      const [{ waiting }] = await sql(databaseUrl, `SELECT EXISTS (SELECT 1 FROM analytics_inbox) AS waiting`);
      if (!waiting && (await writtenOf(appId)) >= count) return (Date.now() - since) / 1000;
      await sleep(100);
    }
    return null;
  };
  log(
    `load 4: POST /collect${withProps ? ' (custom events with props, public addresses: country lookups)' : ''}, ${CONNECTIONS} connections, ${SECONDS} s each`,
  );
  const results = {};
  let accepted = 0;
  let drainSeconds = null;
  for (const [label, url, appId] of [
    ['reference', `http://127.0.0.1:${refPort}/collect`, referenceAppId],
    ['service', `${serviceUrl}/collect`, serviceAppId],
  ]) {
    const warmUp = await cannon({ url, ...beacons(appId), duration: 2 });
    const pid = label === 'service' ? servicePid : reference.pid;
    const [cpuBefore, workerBefore, dbBefore] = [cpuMs(pid), cpuMs(worker.child.pid), await databaseCpu(databaseUrl)];
    const startedAt = Date.now();
    const r = await cannon({ url, ...beacons(appId) });
    if (label === 'service') profileWindow('load 4', startedAt);
    results[label] = summary(r);
    if (label === 'service') {
      // The service's CPU (API, worker, PostgreSQL) is counted once every beacon is stitched.
      accepted = warmUp['2xx'] + r['2xx'];
      drainSeconds = await stitchedBy(appId, accepted, Date.now());
      results.service.stitchedPerSec = drainSeconds === null ? 0 : Math.round(r['2xx'] / (SECONDS + drainSeconds));
      results.service.workerCpuUsPerRequest = Math.round(((cpuMs(worker.child.pid) - workerBefore) * 1000) / r.requests.total);
    } else {
      await sleep(1500); // the reference's last batches are written after the load: the database's share is counted once they are
    }
    results[label].cpuUsPerRequest = Math.round(((cpuMs(pid) - cpuBefore) * 1000) / r.requests.total);
    results[label].databaseCpuUsPerRequest = Math.round((databaseCpuSince(dbBefore, await databaseCpu(databaseUrl)) * 1000) / r.requests.total);
    if (results[label].failed > 0) throw new Error(`load 4: ${label} answered ${results[label].failed} requests with errors`);
    const worked = label === 'service' ? `, worker ${results.service.workerCpuUsPerRequest} µs` : '';
    log(
      `load 4: ${label} ${results[label].reqPerSec} req/s, p50 ${results[label].p50Ms} ms, p99 ${results[label].p99Ms} ms, CPU per request ${results[label].cpuUsPerRequest} µs${worked} (PostgreSQL ${results[label].databaseCpuUsPerRequest} µs)`,
    );
  }
  await stopProcess(worker.child);
  // Everything the service took is stitched within the wait above: none lost.
  const written = await writtenOf(serviceAppId);
  log(
    `load 4: the service stitched ${written} of the ${accepted} beacons it took, the last ${drainSeconds === null ? 'not within 120' : drainSeconds.toFixed(1)} s after the load (${results.service.stitchedPerSec} beacons/s taken until stitched)`,
  );
  return {
    ...results,
    ratio: +(results.service.reqPerSec / results.reference.reqPerSec).toFixed(2),
    stitchedRatio: +(results.service.stitchedPerSec / results.reference.reqPerSec).toFixed(2),
    accepted,
    written,
    drainSeconds: drainSeconds === null ? null : +drainSeconds.toFixed(1),
    nothingLost: drainSeconds !== null && written >= accepted,
  };
}

/**
 * CPU time (ms) of the PostgreSQL backends connected to this database (Linux): each live backend's, and the
 * postmaster's reaped children's. A pool closes idle backends during a load; without the reaped share
 * their time vanished from the second reading and the difference could even be negative.
 */
async function databaseCpu(databaseUrl) {
  const rows = await sql(databaseUrl, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
  const backends = new Map(rows.map(({ pid }) => [pid, cpuMs(pid)]).filter(([, ms]) => ms !== null));
  const [{ pid: self }] = await sql(databaseUrl, 'SELECT pg_backend_pid() AS pid');
  return { backends, reaped: childrenCpuMs(parentOf(self)) ?? 0 };
}

/** The CPU time (ms) between two databaseCpu readings. */
function databaseCpuSince(before, after) {
  let ms = after.reaped - before.reaped;
  for (const [pid, now] of after.backends) ms += now - (before.backends.get(pid) ?? 0);
  // An ended backend's whole life is in `reaped`: what it had spent before the first reading is taken off.
  for (const [pid, then] of before.backends) if (!after.backends.has(pid)) ms -= then;
  return ms;
}

function procStat(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return null;
  }
}

function parentOf(pid) {
  return procStat(pid)?.[1];
}

/** CPU time (ms) of a process's children that have ended and been waited for. */
function childrenCpuMs(pid) {
  const fields = pid === undefined ? null : procStat(pid);
  return fields ? ((Number(fields[13]) + Number(fields[14])) * 1000) / 100 : null;
}

/** A GET with its own Host header (fetch does not send one): status and body as text. */
function getWithHost(baseUrl, host, path) {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, headers: { host, 'user-agent': BROWSER } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Loads 4 and 11, what visitors write: beacons, then sign-ups. */
async function loadVisitorWrites(serviceUrl, servicePid, databaseUrl, accountId, apps, env, only) {
  const collect = only === 'signup' ? undefined : await loadCollect(serviceUrl, servicePid, databaseUrl, apps[2].appId, apps[3].appId, env);
  // Issue 47: the same with custom events, props and country lookups, its ratio against the plain round's.
  const withProps = only === 'signup' ? undefined : await loadCollect(serviceUrl, servicePid, databaseUrl, apps[16].appId, apps[17].appId, env, true);
  if (collect && withProps) collect.withProps = { ...withProps, ofPlain: +(withProps.ratio / collect.ratio).toFixed(2) };
  const signup = only === 'collect' ? undefined : await loadSignup(serviceUrl, databaseUrl, accountId, apps[9].appId, apps[10].appId);
  return { collect, signup };
}

/**
 * Load 11: the landing page's sign-up form posted (form-encoded, a valid token, each post from its own
 * visitor with a new e-mail) to a published landing page's origin, against a bare Fastify + pg inserting
 * the same user row and answering the same 303. The service answers before it creates the user, so
 * its figure is the users it wrote per second: the posts it took in the 10 s over the time until the
 * last of them was written.
 */
async function loadSignup(serviceUrl, databaseUrl, accountId, serviceAppId, referenceAppId) {
  const deployed = await http(`${serviceUrl}/v1/apps/deploy`, 'POST', BENCH_KEY.value, { appId: serviceAppId, env: 'production' });
  const published = await http(`${serviceUrl}/v1/apps/${serviceAppId}/publish`, 'POST', BENCH_KEY.value, { deploymentId: deployed.deploymentId });
  const host = new URL(published.publicUrl).host;
  const tokenAnswer = await getWithHost(serviceUrl, host, '/_platform/signup-token');
  if (tokenAnswer.status !== 200) throw new Error(`load 11: /_platform/signup-token answered ${tokenAnswer.status}`);
  const { token } = JSON.parse(tokenAnswer.body);
  await sleep(2100); // the form's token counts once it is 2 s old (no person posts faster)
  const refPort = await freePort();
  await forkReady('reference/signup-server.mjs', { DATABASE_URL: databaseUrl, PORT: String(refPort), ACCOUNT_ID: accountId, APP_ID: referenceAppId });
  const seq = { n: 0 };
  const posts = (extra) =>
    fromEachVisitor(seq, (n) => ({
      headers: { ...extra, 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
      body: `email=Visitor.${n}-${RUN}%40bench.example&website=&token=${encodeURIComponent(token)}`,
    }));
  const usersOf = async (appId) => (await sql(databaseUrl, `SELECT count(*)::int AS n FROM users WHERE app_id = '${appId}'`))[0].n;
  /** Waits until `count` users of the app are written: the seconds it took, or null after 60 s. */
  const writtenWithin = async (appId, count) => {
    const start = Date.now();
    while ((await usersOf(appId)) < count) {
      if (Date.now() - start > 60_000) return null;
      await sleep(50);
    }
    return (Date.now() - start) / 1000;
  };
  const answered = (label, r) => {
    const failed = r.non2xx - r['3xx'] + r.errors + r.timeouts;
    if (failed > 0 || r['3xx'] === 0) throw new Error(`load 11: ${label} answered ${failed} of ${r.requests.total} posts other than with a 303`);
    return r['3xx'];
  };
  log(`load 11: sign-up form posts to ${host}/signup, ${CONNECTIONS} connections, ${SECONDS} s each`);
  const results = {};
  let accepted = 0;
  let drainSeconds = 0;
  for (const [label, url, appId, extra] of [
    ['reference', `http://127.0.0.1:${refPort}/signup`, referenceAppId, {}],
    ['service', `${serviceUrl}/signup`, serviceAppId, { host }],
  ]) {
    const before = answered(label, await cannon({ url, ...posts(extra), duration: 2 }));
    if ((await writtenWithin(appId, before)) === null) log(`load 11: the ${label} did not write the warm-up's ${before} users within 60 s`);
    const startedAt = Date.now();
    const r = await cannon({ url, ...posts(extra) });
    if (label === 'service') profileWindow('load 11', startedAt);
    const taken = answered(label, r);
    results[label] = summary(r);
    results[label].failed = 0;
    if (label === 'service') {
      accepted = before + taken;
      drainSeconds = await writtenWithin(appId, accepted);
      results.service.sustainedPerSec = drainSeconds === null ? 0 : Math.round(taken / (SECONDS + drainSeconds));
    }
    log(`load 11: ${label} ${results[label].reqPerSec} req/s, p50 ${results[label].p50Ms} ms, p99 ${results[label].p99Ms} ms`);
  }
  const written = await usersOf(serviceAppId);
  log(`load 11: the service wrote ${written} of the ${accepted} sign-ups it took, the last ${drainSeconds} s after the load`);
  const ratio = +(results.service.sustainedPerSec / results.reference.reqPerSec).toFixed(2);
  const nothingLost = drainSeconds !== null && written >= accepted;
  return {
    ...results,
    sustainedPerSec: results.service.sustainedPerSec,
    ratio,
    accepted,
    written,
    drainSeconds: drainSeconds === null ? null : +drainSeconds.toFixed(1),
    nothingLost,
    target: { target: TARGETS.signup, met: ratio >= TARGETS.signup && nothingLost },
  };
}

/**
 * Load 5: the same 30-day aggregate for an app with 100 000 raw events and one with 2 000 000
 * (seeded straight into the tables, with their daily rollups). It reads rollups, so the two
 * should answer in about the same time.
 */
async function loadAggregate(serviceUrl, databaseUrl, apiKey, smallAppId, largeAppId) {
  const started = Date.now();
  // The previous month's partition (the service makes this month's and the next two).
  const now = new Date();
  for (const offset of [-1]) {
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
    const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset + 1, 1));
    const suffix = `p${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
    for (const table of ['analytics_events', 'analytics_visits'])
      await sql(
        databaseUrl,
        `CREATE TABLE IF NOT EXISTS ${table}_${suffix} PARTITION OF ${table} FOR VALUES FROM ('${from.toISOString()}') TO ('${to.toISOString()}')`,
      );
  }
  for (const [appId, count] of [
    [smallAppId, SMALL_EVENTS],
    [largeAppId, LARGE_EVENTS],
  ]) {
    await sql(
      databaseUrl,
      // One event in ten a custom `Download` with a `format` property (issue 47's goal and props query below).
      `INSERT INTO analytics_events (app_id, occurred_at, visitor_id, name, pathname, referrer_host, browser, os, device, props)
       SELECT '${appId}', now() - random() * interval '29 days', (random() * 1e6)::bigint, CASE WHEN i % 10 = 0 THEN 'Download' ELSE 'pageview' END, '/p' || (i % 50),
              CASE WHEN i % 3 = 0 THEN 'google.com' END, (ARRAY['Chrome', 'Firefox', 'Safari'])[1 + i % 3], 'Linux', (ARRAY['desktop', 'mobile', 'tablet'])[1 + i % 3],
              CASE WHEN i % 10 = 0 THEN jsonb_build_object('format', (ARRAY['pdf', 'zip'])[1 + i % 20 / 10]) END
         FROM generate_series(1, ${count}) AS i`,
    );
    await sql(
      databaseUrl,
      `INSERT INTO analytics_daily (app_id, day, dimension, value, visitors, pageviews, visits, bounces, visit_ms, signups, events)
       SELECT app_id, (occurred_at AT TIME ZONE 'UTC')::date, d.dimension, d.value, count(DISTINCT visitor_id), count(*) FILTER (WHERE name = 'pageview'),
              count(DISTINCT visitor_id), 0, 0, 0, count(*) FILTER (WHERE name <> 'pageview')
         FROM analytics_events
              CROSS JOIN LATERAL (SELECT * FROM (VALUES ('', ''), ('page', pathname), ('browser', browser), ('device', device),
                                                        ('event', CASE WHEN name <> 'pageview' THEN name END)) AS fixed
                                  -- As the writer: each props key, and each with the event's name (the internal evt+props.<key>, name U+001E value).
                                  UNION ALL SELECT 'props.' || p.key, p.value FROM jsonb_each_text(props) AS p
                                  UNION ALL SELECT 'evt+props.' || p.key, name || chr(30) || p.value FROM jsonb_each_text(props) AS p) AS d(dimension, value)
        WHERE app_id = '${appId}' AND d.value IS NOT NULL GROUP BY 1, 2, 3, 4`,
    );
    await http(`${serviceUrl}/v1/apps/${appId}/goals`, 'POST', apiKey, { event: 'Download' });
  }
  // What autovacuum would do to the new rows (a vacuum, statistics), and their pages written, now, not during the loads after.
  await sql(databaseUrl, 'VACUUM (ANALYZE)');
  await sql(databaseUrl, 'CHECKPOINT');
  log(`load 5: seeded ${SMALL_EVENTS} and ${LARGE_EVENTS} raw events with their rollups in ${Math.round((Date.now() - started) / 1000)} s`);
  const query = 'period=30d&metrics=visitors,visits,pageviews,bounceRate,visitDuration,signups,conversionRate';
  const measure = async (appId, events) => {
    const url = `${serviceUrl}/v1/apps/${appId}/analytics/aggregate?${query}`;
    const headers = { authorization: `Bearer ${apiKey}` };
    await cannon({ url, headers, duration: 2 });
    const r = await cannon({ url, headers });
    if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`load 5: ${r.non2xx} non-2xx answers`);
    const figures = { events, reqPerSec: Math.round(r.requests.average), meanMs: +r.latency.average.toFixed(2), p99Ms: r.latency.p99 };
    log(`load 5: ${events} raw events: ${figures.reqPerSec} req/s, mean ${figures.meanMs} ms, p99 ${figures.p99Ms} ms`);
    return figures;
  };
  const small = await measure(smallAppId, SMALL_EVENTS);
  const large = await measure(largeAppId, LARGE_EVENTS);
  // Issue 47: goal conversions with a props filter (`breakdown?property=goal&filters=props.format==pdf`), the same two apps.
  const goalQuery = `period=30d&property=goal&filters=${encodeURIComponent('props.format==pdf')}`;
  const measureGoal = async (appId, events) => {
    const url = `${serviceUrl}/v1/apps/${appId}/analytics/breakdown?${goalQuery}`;
    const headers = { authorization: `Bearer ${apiKey}` };
    const answer = await http(url, 'GET', apiKey);
    if (answer.data?.[0]?.goal !== 'Download' || !(answer.data[0].visitors > 0))
      throw new Error(`load 5: the goal breakdown answered ${JSON.stringify(answer).slice(0, 300)}`);
    await cannon({ url, headers, duration: 2 });
    const r = await cannon({ url, headers });
    if (r.non2xx + r.errors + r.timeouts > 0) throw new Error(`load 5 (goal): ${r.non2xx} non-2xx answers`);
    const figures = { events, reqPerSec: Math.round(r.requests.average), meanMs: +r.latency.average.toFixed(2), p99Ms: r.latency.p99 };
    log(`load 5, a goal with a props filter: ${events} raw events: ${figures.reqPerSec} req/s, mean ${figures.meanMs} ms, p99 ${figures.p99Ms} ms`);
    return figures;
  };
  const goalSmall = await measureGoal(smallAppId, SMALL_EVENTS);
  const goalLarge = await measureGoal(largeAppId, LARGE_EVENTS);
  return {
    small,
    large,
    timeRatio: +(large.meanMs / small.meanMs).toFixed(2),
    goal: { small: goalSmall, large: goalLarge, timeRatio: +(goalLarge.meanMs / goalSmall.meanMs).toFixed(2) },
  };
}

/** A seeded pseudo-random generator: the same bundle every run. */
function prng(seed) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/** A page of a bundle: about `bytes` of ordinary HTML (text, links, a script and a stylesheet). */
function benchPage(bytes, script) {
  const rand = prng(7);
  const words = ['notes', 'private', 'browser', 'sync', 'offline', 'search', 'tags', 'export', 'markdown', 'daily', 'journal', 'fast', 'local', 'first'];
  const sentence = () => Array.from({ length: 12 }, () => words[Math.floor(rand() * words.length)]).join(' ');
  let body = '';
  while (body.length < bytes - 600)
    body += `<section><h2>${sentence().slice(0, 30)}</h2><p>${sentence()}. ${sentence()}.</p><a href="/notes/${Math.floor(rand() * 1000)}">Open</a></section>\n`;
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Bench notes</title><link rel="stylesheet" href="/assets/app.css"><script type="module" src="${script}"></script></head>\n<body><main>\n${body}</main></body></html>\n`;
}

/** A minified-looking script of about `bytes`: compresses like real bundles (3–4×), not like repeated text. */
function benchScript(bytes) {
  const rand = prng(11);
  const id = () => Math.floor(rand() * 36 ** 3).toString(36);
  let code = '';
  while (code.length < bytes) {
    code += `function ${id()}(${id()},${id()}){var ${id()}=${id()}.${id()}(${Math.floor(rand() * 1e4)});if(${id()}>${Math.floor(rand() * 100)})return ${id()}.${id()}("${id()}${id()}");return[${id()},${id()}]}`;
  }
  return code.slice(0, bytes);
}

async function putFile(serviceUrl, apiKey, body) {
  const hash = createHash('sha256').update(body).digest('hex');
  const res = await fetch(`${serviceUrl}/v1/files/${hash}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/octet-stream' },
    body,
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`upload answered ${res.status}`);
  return hash;
}

/** A metric of the process's /metrics (a gauge without labels). */
async function metric(url, name) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : null;
}

/** Resident set size of a process now, in MiB (Linux: VmRSS). */
function rssMiB(pid) {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return null;
  }
}

/**
 * Loads 7–9: serving on site origins against a bare Fastify answering the same bytes from memory —
 * a 7 KB HTML page of a bundle, a 100 KB hashed script asked with gzip, and a published landing page
 * at <slug>.<SITES_DOMAIN>/ — each from a browser's User-Agent, so analytics counts the pages (one
 * visitor: past 120 a minute its pageviews are dropped by the per-visitor limit, after hashing). Then
 * the cache's memory: 160 files of 1 MiB (2.5 × SITE_CACHE_BYTES) each asked twice.
 */
async function loadSites(api, apiKey, apps) {
  const html = Buffer.from(benchPage(7 * 1024, '/assets/app.5e1f0c9a.js'));
  const script = Buffer.from(benchScript(100 * 1024));
  const scriptPath = '/assets/app.5e1f0c9a.js';
  const files = { '/index.html': await putFile(api.url, apiKey, html), [scriptPath]: await putFile(api.url, apiKey, script) };
  const bundle = await http(`${api.url}/v1/apps/deploy`, 'POST', apiKey, { appId: apps[6].appId, env: 'production', files });
  const bundleHost = new URL(bundle.url).host;
  const landing = await http(`${api.url}/v1/apps/deploy`, 'POST', apiKey, { appId: apps[7].appId, env: 'production' });
  const published = await http(`${api.url}/v1/apps/${apps[7].appId}/publish`, 'POST', apiKey, { deploymentId: landing.deploymentId });
  const landingHost = new URL(published.publicUrl).host;

  const refPort = await freePort();
  const { child: reference, msg } = await forkReady('reference/site-server.mjs', {
    PORT: String(refPort),
    SERVICE_URL: api.url,
    HTML_HOST: bundleHost,
    JS_HOST: bundleHost,
    JS_PATH: scriptPath,
    LANDING_HOST: landingHost,
    USER_AGENT: BROWSER,
  });
  const ref = `http://127.0.0.1:${refPort}`;
  log(`loads 7–9: site origins (${bundleHost}, ${landingHost}); bytes per answer ${JSON.stringify(msg.bytes)}`);
  // What a browser sends for a page and for a script: its User-Agent, keep-alive, and gzip accepted (the outside
  // measurement of issue 45 asked with `gzip` alone; the reference answers what the service answers to it).
  const page = { 'user-agent': BROWSER, accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'gzip' };
  const asset = { 'user-agent': BROWSER, accept: '*/*', 'accept-encoding': 'gzip' };
  const pids = { service: api.child.pid, reference: reference.pid };
  const pageLoad = await compareWrk('load 7', `${api.url}/`, `${ref}/page`, { ...page, host: bundleHost }, pids);
  const scriptLoad = await compareWrk('load 8', `${api.url}${scriptPath}`, `${ref}/script`, { ...asset, host: bundleHost }, pids);
  const landingLoad = await compareWrk('load 9', `${api.url}/`, `${ref}/landing`, { ...page, host: landingHost }, pids);
  const split = await loadSplit(api, apiKey, apps[7].appId);
  const rssAfterLoads = rssMiB(api.child.pid);
  const peakAfterLoads = peakRssMiB(api.child.pid);

  // The cache's bound: 2.5 × SITE_CACHE_BYTES of files, each asked twice (the second time from memory if it was kept).
  const count = Math.round((2.5 * SITE_CACHE_BYTES) / 2 ** 20);
  const many = {};
  for (let i = 0; i < count; i++) many[`/blob-${i}.bin`] = await putFile(api.url, apiKey, randomBytes(2 ** 20));
  const big = await http(`${api.url}/v1/apps/deploy`, 'POST', apiKey, { appId: apps[8].appId, env: 'production', files: many });
  const bigHost = new URL(big.url).host;
  for (let round = 0; round < 2; round++) {
    await cannon({
      url: api.url,
      connections: 1, // one connection walks the list in order: every file once a round
      amount: count,
      requests: Object.keys(many).map((path) => ({ method: 'GET', path, headers: { host: bigHost } })),
    });
  }
  const memory = {
    cacheLimitMiB: SITE_CACHE_BYTES / 2 ** 20,
    servedMiB: count * 2,
    cacheBytesAfter: await metric(api.url, 'site_file_cache_bytes'),
    // Files of 256 KiB and over are kept on disk (streamed; the OS page cache holds them, outside the RSS).
    diskBytesAfter: await metric(api.url, 'site_file_disk_cache_bytes'),
    rssMiBAfterLoads: rssAfterLoads,
    peakRssMiBAfterLoads: peakAfterLoads,
    rssMiBAfterSweep: rssMiB(api.child.pid),
    peakRssMiB: peakRssMiB(api.child.pid),
  };
  log(
    `sites: cache ${Math.round(memory.cacheBytesAfter / 2 ** 20)} MiB of ${memory.cacheLimitMiB} in memory, ${Math.round(memory.diskBytesAfter / 2 ** 20)} MiB on disk; RSS ${memory.rssMiBAfterLoads} → ${memory.rssMiBAfterSweep} MiB, peak ${memory.peakRssMiBAfterLoads} after loads 7–9 and ${memory.peakRssMiB} after load 10`,
  );
  return {
    page: { ...pageLoad, bytes: msg.bytes['/page'] },
    script: { ...scriptLoad, bytes: msg.bytes['/script'], rawBytes: script.length },
    landing: { ...landingLoad, bytes: msg.bytes['/landing'] },
    split,
    memory,
    targets: {
      page: { target: TARGETS.page, met: pageLoad.ratio >= TARGETS.page },
      script: { target: TARGETS.script, met: scriptLoad.ratio >= TARGETS.script },
      landing: { target: TARGETS.landing, met: landingLoad.ratio >= TARGETS.landing },
      split: split.target,
      memory: { met: memory.cacheBytesAfter !== null && memory.cacheBytesAfter <= SITE_CACHE_BYTES && memory.peakRssMiB < TARGETS.rssMiB },
    },
  };
}

/**
 * Load 9 under a split test (issue 49): the published landing page of `appId` at its slug origin with a 50/50 test
 * between two of its landing deployments, against the same page without one — the service's CPU per request only
 * (the reference has no split), in three alternating pairs of rounds (without, then with) so that drift in the machine's
 * load falls on both; each round the same browser request (one visitor: the variant is picked, by the visitor-id
 * hash, on every request all the same).
 */
async function loadSplit(api, apiKey, appId) {
  const a = await http(`${api.url}/v1/apps/deploy`, 'POST', apiKey, { appId, env: 'production' });
  const b = await http(`${api.url}/v1/apps/deploy`, 'POST', apiKey, { appId, env: 'production' });
  const published = await http(`${api.url}/v1/apps/${appId}/publish`, 'POST', apiKey, { deploymentId: a.deploymentId });
  const host = new URL(published.publicUrl).host;
  const request = { url: `${api.url}/`, headers: { 'user-agent': BROWSER, accept: 'text/html,application/xhtml+xml', host } };
  const variants = [
    { deploymentId: a.deploymentId, weight: 50 },
    { deploymentId: b.deploymentId, weight: 50 },
  ];
  const rounds = { without: [], with: [] };
  for (const mode of ['without', 'with', 'without', 'with', 'without', 'with']) {
    if (mode === 'with') await http(`${api.url}/v1/apps/${appId}/split`, 'PUT', apiKey, { variants });
    await databaseAtRest(`load 9 ${mode} a split`);
    await cannon({ ...request, duration: 2 });
    const cpuBefore = cpuMs(api.child.pid);
    const r = await cannon(request);
    const result = { ...summary(r), cpuUsPerRequest: +(((cpuMs(api.child.pid) - cpuBefore) * 1000) / r.requests.total).toFixed(1) };
    if (result.failed > 0) throw new Error(`load 9 ${mode} a split: ${result.failed} requests failed`);
    log(`load 9 ${mode} a split: ${result.reqPerSec} req/s, ${result.cpuUsPerRequest} µs CPU per request`);
    rounds[mode].push(result);
    if (mode === 'with') await fetch(`${api.url}/v1/apps/${appId}/split`, { method: 'DELETE', headers: { authorization: `Bearer ${apiKey}` } });
  }
  const cpu = (list) => +(list.reduce((sum, r) => sum + r.cpuUsPerRequest, 0) / list.length).toFixed(1);
  const reqPerSec = (list) => Math.round(list.reduce((sum, r) => sum + r.reqPerSec, 0) / list.length);
  const ratio = +(cpu(rounds.with) / cpu(rounds.without)).toFixed(2);
  return {
    rounds,
    without: { cpuUsPerRequest: cpu(rounds.without), reqPerSec: reqPerSec(rounds.without) },
    with: { cpuUsPerRequest: cpu(rounds.with), reqPerSec: reqPerSec(rounds.with) },
    ratio,
    target: { target: TARGETS.splitCpu, met: ratio <= TARGETS.splitCpu },
  };
}

/** The function of load 13: a small JSON body, as an app's API route answers. */
const FUNCTION_CODE = `export default {\n  fetch(request) {\n    return Response.json({ ok: true, path: new URL(request.url).pathname, service: 'bench' });\n  },\n};\n`;

/** RSS of a process and every process under it, in bytes (Linux). */
function treeRssBytes(pid) {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return pages * 4096 + children.reduce((sum, child) => sum + treeRssBytes(child), 0);
  } catch {
    return 0;
  }
}

/** The instances an API process runs: its child processes (bwrap, or deno itself without the sandbox), with their trees' RSS. */
function instancesOf(apiPid) {
  try {
    const children = readFileSync(`/proc/${apiPid}/task/${apiPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.filter((pid) => /deno|bwrap/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))).map((pid) => ({ pid, rssBytes: treeRssBytes(pid) }));
  } catch {
    return [];
  }
}

/**
 * Load 13 (issue 46): a function answering a small JSON body through the platform — the site origin's routing, the
 * dispatch, the instance's socket, its log line and meters — against the same module under bare `deno serve`, with
 * wrk as in loads 7–9 (the CPU per request of the API and of the instance's processes beside it). Then cold starts
 * (the first request of 10 new deployments), and the memory of 20 warm instances: each instance's RSS (its process
 * tree) and the API's own.
 */
async function loadFunctions(api, apiKey, appId) {
  const code = Buffer.from(FUNCTION_CODE);
  const files = {
    '/index.html': await putFile(api.url, apiKey, Buffer.from('<!doctype html><h1>Bench</h1>')),
    '/_server/index.js': await putFile(api.url, apiKey, code),
  };
  const deployOne = async () => {
    const deployed = await http(`${api.url}/v1/apps/deploy`, 'POST', apiKey, {
      appId,
      env: 'production',
      files,
      config: { functions: { entry: '/_server/index.js', routes: ['/api/*'] } },
    });
    return new URL(deployed.url).host;
  };
  const host = await deployOne();
  const first = await getWithHost(api.url, host, '/api/hello');
  if (first.status !== 200 || JSON.parse(first.body).path !== '/api/hello')
    throw new Error(`load 13: the function answered ${first.status} ${first.body.slice(0, 200)}`);

  // The reference: the same module under `deno serve` (Deno's own server for `export default { fetch }`), on loopback.
  const dir = mkdtempSync(join(os.tmpdir(), 'bench-deno-'));
  writeFileSync(join(dir, 'index.js'), FUNCTION_CODE);
  const port = await freePort();
  const { denoExecutable } = await import('../dist/functions/deno-binary.js');
  const bare = spawn(denoExecutable(), ['serve', '--quiet', '--host', '127.0.0.1', '--port', String(port), join(dir, 'index.js')], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { PATH: process.env.PATH, DENO_NO_UPDATE_CHECK: '1' },
  });
  children.push(bare);
  const ref = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    i < 100 &&
    !(await getWithHost(ref, 'localhost', '/api/hello').then(
      (r) => r.status === 200,
      () => false,
    ));
    i++
  )
    await sleep(100);

  const headers = { 'user-agent': BROWSER, accept: 'application/json', 'accept-encoding': 'gzip' };
  const instance = instancesOf(api.child.pid)[0];
  const pids = { service: api.child.pid, reference: bare.pid };
  const load = await compareWrk('load 13', `${api.url}/api/hello`, `${ref}/api/hello`, { ...headers, host }, pids);
  // Beside it, no target: the floor of a Node front (reference/function-proxy.mjs, a bare proxy before the same
  // `deno serve`) and the ceiling of any Node server (reference/function-json.mjs, answering the JSON itself).
  const nodeFloor = await besideFunctions('a bare Node proxy before deno serve', 'reference/function-proxy.mjs', { UPSTREAM: ref }, headers, host, load);
  const nodeCeiling = await besideFunctions('a bare Node server answering the JSON itself', 'reference/function-json.mjs', {}, headers, host, load);
  await stopProcess(bare);
  rmSync(dir, { recursive: true, force: true });

  // Cold starts: the first request of each of 10 new deployments (each a new instance).
  const coldMs = [];
  const hosts = [];
  for (let i = 0; i < 10; i++) {
    const next = await deployOne();
    hosts.push(next);
    const startedAt = performance.now();
    const answer = await getWithHost(api.url, next, '/api/cold');
    coldMs.push(performance.now() - startedAt);
    if (answer.status !== 200) throw new Error(`load 13: a cold start answered ${answer.status}`);
  }
  // 20 warm instances: the 10 above, the first, and 9 more.
  for (let i = 0; i < 9; i++) hosts.push(await deployOne());
  for (const h of hosts) await getWithHost(api.url, h, '/api/warm');
  const instances = instancesOf(api.child.pid);
  const sorted = [...coldMs].sort((a, b) => a - b);
  const instanceRss = instances.map((i) => i.rssBytes).sort((a, b) => a - b);
  const figures = {
    ...load,
    nodeFloor,
    nodeCeiling,
    ofNodeFloor: +(load.service.reqPerSec / nodeFloor.reqPerSec).toFixed(2),
    sandbox: instance ? (readFileSync(`/proc/${instance.pid}/cmdline`, 'utf8').includes('bwrap') ? 'bwrap' : 'none') : 'unknown',
    coldStart: { p50Ms: Math.round(sorted[4]), maxMs: Math.round(sorted.at(-1)), allMs: coldMs.map(Math.round) },
    memory: {
      warmInstances: instances.length,
      instanceRssMiB: instanceRss.length ? +(instanceRss[Math.floor(instanceRss.length / 2)] / 2 ** 20).toFixed(1) : null,
      instancesRssMiB: Math.round(instanceRss.reduce((a, b) => a + b, 0) / 2 ** 20),
      apiRssMiB: rssMiB(api.child.pid),
    },
  };
  log(
    `load 13: cold start p50 ${figures.coldStart.p50Ms} ms (max ${figures.coldStart.maxMs}); ${figures.memory.warmInstances} warm instances, ${figures.memory.instanceRssMiB} MiB each (median), ${figures.memory.instancesRssMiB} MiB together; the API ${figures.memory.apiRssMiB} MiB`,
  );
  return {
    ...figures,
    target: {
      ratio: { target: TARGETS.functions, met: load.ratio >= TARGETS.functions },
      coldStart: { target: TARGETS.coldStartMs, met: figures.coldStart.p50Ms <= TARGETS.coldStartMs },
    },
  };
}

/** A reference server of load 13 run beside it under the same wrk: its rate, and its ratio against bare `deno serve`. */
async function besideFunctions(what, script, env, headers, host, load) {
  const port = await freePort();
  const { child } = await forkReady(script, { PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}/api/hello`;
  await wrk({ url, headers: { ...headers, host }, duration: 2 });
  const run = await wrk({ url, headers: { ...headers, host } });
  await stopProcess(child);
  if (run.failed > 0) throw new Error(`load 13: ${what} answered ${run.failed} requests with errors`);
  const figure = { reqPerSec: run.reqPerSec, p50Ms: run.p50Ms, p99Ms: run.p99Ms, ratio: +(run.reqPerSec / load.reference.reqPerSec).toFixed(2) };
  log(`load 13: ${what} ${figure.reqPerSec} req/s (ratio ${figure.ratio}), p50 ${figure.p50Ms} ms`);
  return figure;
}

function functionsTable(f) {
  const yes = (t) => (t.met ? 'met' : 'NOT met');
  return markdown([
    ['Load', 'Service', 'Reference', 'Ratio', 'Target'],
    [
      `13. a function's JSON answer (sandbox ${f.sandbox})`,
      `${f.service.reqPerSec} req/s (p50 ${f.service.p50Ms} / p99 ${f.service.p99Ms} ms), API ${f.service.cpuUsPerRequest} µs CPU a request`,
      `bare \`deno serve\`: ${f.reference.reqPerSec} req/s (p50 ${f.reference.p50Ms} / p99 ${f.reference.p99Ms} ms), ${f.reference.cpuUsPerRequest} µs`,
      f.ratio,
      `≥ ${TARGETS.functions}: ${yes(f.target.ratio)}`,
    ],
    [
      '13. beside it: a bare Node proxy before the same `deno serve`',
      `${f.nodeFloor.reqPerSec} req/s (p50 ${f.nodeFloor.p50Ms} / p99 ${f.nodeFloor.p99Ms} ms)`,
      '',
      f.nodeFloor.ratio,
      `none: the floor of a Node front (the service at ${f.ofNodeFloor} of it)`,
    ],
    [
      '13. beside it: a bare Node server answering the JSON itself',
      `${f.nodeCeiling.reqPerSec} req/s (p50 ${f.nodeCeiling.p50Ms} / p99 ${f.nodeCeiling.p99Ms} ms)`,
      '',
      f.nodeCeiling.ratio,
      'none: the ceiling of any Node server',
    ],
    [
      '13. cold start (first request of 10 new deployments)',
      `p50 ${f.coldStart.p50Ms} ms, max ${f.coldStart.maxMs} ms`,
      '',
      '',
      `p50 ≤ ${TARGETS.coldStartMs} ms: ${yes(f.target.coldStart)}`,
    ],
    [
      '13. memory of warm instances',
      `${f.memory.warmInstances} instances: ${f.memory.instanceRssMiB} MiB each (median), ${f.memory.instancesRssMiB} MiB together; the API ${f.memory.apiRssMiB} MiB`,
      '',
      '',
      'none: the figures',
    ],
  ]);
}

function splitRow(split) {
  return [
    '9. the same under a 50/50 split test',
    `${split.with.reqPerSec} req/s, ${split.with.cpuUsPerRequest} µs CPU a request`,
    `without: ${split.without.reqPerSec} req/s, ${split.without.cpuUsPerRequest} µs`,
    split.ratio,
    `CPU ≤ ${split.target.target}× without: ${split.target.met ? 'met' : 'NOT met'}`,
  ];
}

function splitTable(split) {
  return markdown([['Load', 'Service', 'Reference', 'Ratio', 'Target'], splitRow(split)]);
}

function sitesTable(s) {
  const yes = (t) => (t.met ? 'met' : 'NOT met');
  const row = (name, r, t) => [
    name,
    `${r.service.reqPerSec} req/s (p50 ${r.service.p50Ms} / p99 ${r.service.p99Ms} ms)`,
    `${r.reference.reqPerSec} req/s (p50 ${r.reference.p50Ms} / p99 ${r.reference.p99Ms} ms)`,
    r.ratio,
    `≥ ${t.target}: ${yes(t)}`,
  ];
  const rows = [
    ['Load', 'Service', 'Reference', 'Ratio', 'Target'],
    row(`7. a bundle's HTML page (${s.page.bytes} B)`, s.page, s.targets.page),
    row(`8. a hashed script, gzip (${s.script.rawBytes} → ${s.script.bytes} B)`, s.script, s.targets.script),
    row(`9. a published landing page (${s.landing.bytes} B)`, s.landing, s.targets.landing),
    splitRow(s.split),
    [
      '10. cache memory',
      `${Math.round(s.memory.cacheBytesAfter / 2 ** 20)} MiB kept in memory and ${Math.round((s.memory.diskBytesAfter ?? 0) / 2 ** 20)} MiB on disk of ${s.memory.servedMiB} MiB served; RSS ${s.memory.rssMiBAfterLoads} → ${s.memory.rssMiBAfterSweep} MiB`,
      '',
      '',
      `≤ SITE_CACHE_BYTES (${s.memory.cacheLimitMiB} MiB) in memory, peak RSS ${s.memory.peakRssMiB} < ${TARGETS.rssMiB} MiB: ${yes(s.targets.memory)}`,
    ],
  ];
  return markdown(rows);
}

/** PLANS_FILE for the bench: the built-in plans plus `bench` (every meter unlimited, request limits out of reach). */
/**
 * Load 12: chat completions through the platform (`POST /v1/chat/completions` with the bench key: auth, the AI rate
 * limit, validation, the call to the upstream, the usage row and the ai.tokens meter) against the same upstream
 * (reference/openai-upstream.mjs) called directly. The target: an upstream that takes UPSTREAM_LATENCY_MS to answer,
 * as models do (plain, and streamed with its usage); beside it, for the gateway's cost alone, an upstream answering at
 * once — where the two servers' CPU, not time, bounds the rate — with the CPU each process spent per request.
 */
async function loadGateway(api, apiKey, upstreams) {
  const body = (model, stream) =>
    JSON.stringify({
      model,
      messages: [
        { role: 'system', content: 'You write short product copy.' },
        { role: 'user', content: 'A tagline for a recipe app.' },
      ],
      max_tokens: 16,
      ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    });
  const [{ n: before }] = await sql(databaseUrl(DB_NAME), `SELECT count(*)::int AS n FROM ai_usage`);
  const figures = {};
  for (const [name, upstream, model, stream] of [
    ['plain', upstreams.llm, 'bench-llm', false],
    ['streamed', upstreams.llm, 'bench-llm', true],
    ['instant', upstreams.instant, 'bench-instant', false],
  ]) {
    // The same answer both ways (the gateway's id, created and model are its own).
    const direct = await fetch(`${upstream.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: body('m', stream),
    });
    const through = await fetch(`${api.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body(model, stream),
    });
    const [a, b] = [await direct.text(), await through.text()];
    const text = (raw) => (stream ? [...raw.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('') : JSON.parse(raw).choices[0].message.content);
    if (direct.status !== 200 || through.status !== 200 || text(a) !== text(b))
      throw new Error(`load 12 (${name}): the gateway answers differently: ${b.slice(0, 300)}`);
    log(`load 12: chat completions (${name}; upstream latency ${upstream.latencyMs} ms), ${CONNECTIONS} connections, ${SECONDS} s each`);
    const request = (model) => ({
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: body(model, stream),
    });
    const results = {};
    for (const [label, url, req, pid] of [
      ['reference', `${upstream.url}/v1/chat/completions`, request('m'), upstream.pid],
      ['service', `${api.url}/v1/chat/completions`, request(model), api.child.pid],
    ]) {
      await cannon({ url, ...req, duration: 2 });
      const cpuBefore = { own: cpuMs(pid), upstream: cpuMs(upstream.pid) };
      const startedAt = Date.now();
      const r = await cannon({ url, ...req });
      if (label === 'service') profileWindow(`load 12 ${name}`, startedAt);
      results[label] = summary(r);
      if (results[label].failed > 0) throw new Error(`load 12 ${name}: ${label} answered ${results[label].failed} requests with errors`);
      results[label].cpuUsPerRequest = Math.round(((cpuMs(pid) - cpuBefore.own) * 1000) / r.requests.total);
      if (label === 'service') results[label].upstreamCpuUsPerRequest = Math.round(((cpuMs(upstream.pid) - cpuBefore.upstream) * 1000) / r.requests.total);
      log(
        `load 12 ${name}: ${label} ${results[label].reqPerSec} req/s, p50 ${results[label].p50Ms} ms, p99 ${results[label].p99Ms} ms, ${results[label].cpuUsPerRequest} µs CPU per request`,
      );
    }
    figures[name] = {
      ...results,
      upstreamLatencyMs: upstream.latencyMs,
      ratio: +(results.service.reqPerSec / results.reference.reqPerSec).toFixed(2),
      addedP50Ms: results.service.p50Ms - results.reference.p50Ms,
    };
  }
  // Every call through the gateway left its usage row (the warm-ups' and the checks' included).
  await sleep(500);
  const [{ n: after }] = await sql(databaseUrl(DB_NAME), `SELECT count(*)::int AS n FROM ai_usage`);
  const calls = figures.plain.service.ok + figures.streamed.service.ok + figures.instant.service.ok;
  const ratio = Math.min(figures.plain.ratio, figures.streamed.ratio);
  return {
    ...figures,
    usageRows: after - before,
    target: { target: TARGETS.gateway, met: ratio >= TARGETS.gateway && after - before >= calls },
  };
}

function gatewayTable(g) {
  const yes = (met) => (met ? 'met' : 'NOT met');
  const row = (name, f, target) => [
    `12. chat completions, ${name} (upstream ${f.upstreamLatencyMs} ms)`,
    `${f.service.reqPerSec} req/s (p50 ${f.service.p50Ms} / p99 ${f.service.p99Ms} ms), ${f.service.cpuUsPerRequest} µs CPU a request`,
    `${f.reference.reqPerSec} req/s (p50 ${f.reference.p50Ms} / p99 ${f.reference.p99Ms} ms), ${f.reference.cpuUsPerRequest} µs`,
    f.ratio,
    target ? `≥ ${TARGETS.gateway}: ${yes(f.ratio >= TARGETS.gateway)}` : 'none: the CPU a call costs',
  ];
  return markdown([
    ['Load', 'Service', 'Reference', 'Ratio', 'Target'],
    row('plain', g.plain, true),
    row('streamed', g.streamed, true),
    row('plain', g.instant, false),
    ['', `${g.usageRows} usage rows written`, '', '', `one per call: ${yes(g.usageRows >= g.plain.service.ok + g.streamed.service.ok + g.instant.service.ok)}`],
  ]);
}

/** Load 12's AI_PROVIDERS_FILE: a model on each upstream stub. */
function writeBenchProviders(upstreams) {
  const path = join(os.tmpdir(), `bench-ai-providers-${RUN}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      providers: {
        llm: { type: 'openai', baseUrl: `${upstreams.llm.url}/v1`, apiKey: 'sk-bench-upstream' },
        instant: { type: 'openai', baseUrl: `${upstreams.instant.url}/v1`, apiKey: 'sk-bench-upstream' },
      },
      models: { 'bench-llm': ['llm/m'], 'bench-instant': ['instant/m'] },
    }),
  );
  return path;
}

function writeBenchPlans() {
  const path = join(os.tmpdir(), `bench-plans-${RUN}.json`);
  writeFileSync(
    path,
    JSON.stringify({ bench: { name: 'Bench', priceCents: 0, requestsPerMinute: 1_000_000_000, aiRequestsPerMinute: 1_000_000_000, meters: {} } }),
  );
  return path;
}

async function cleanup() {
  await Promise.all([...children.map(stopProcess), endSqlPools()]);
  await adminQuery(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`).catch((err) => log(`could not drop ${DB_NAME}: ${err.message}`));
  const redis = new Redis(REDIS_URL);
  // SCAN, not KEYS: the Redis may be shared, and KEYS blocks it.
  for await (const keys of redis.scanStream({ match: `${REDIS_PREFIX}*`, count: 1000 })) if (keys.length) await redis.del(...keys);
  redis.disconnect();
  await endSqlPools();
}

main().then(cleanup, async (err) => {
  console.error(err);
  await cleanup();
  process.exitCode = 1;
});

#!/usr/bin/env node
// Functions runtime figures (docs/decisions/2026-11-28-functions-runtime.md): cold start, per-request overhead
// against a bare Deno server answering the same code on 127.0.0.1, and the memory of an idle instance, with each
// sandbox. `node scripts/build.mjs && node bench/functions.mjs` (about a minute; nothing but loopback traffic).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { denoExecutable } from '../dist/functions/deno-binary.js';
import { InstancePool } from '../dist/functions/instance-pool.js';

const CODE = `export default { fetch: (req) => new Response('ok ' + new URL(req.url).pathname) };\n`;
const ROUNDS = 10;
const REQUESTS = 1000;
const bytes = Buffer.from(CODE);
const sha256 = createHash('sha256').update(bytes).digest('hex');
const code = { files: [{ path: '/_server/index.js', sha256 }], read: async () => bytes };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function get(options) {
  return new Promise((resolve, reject) => {
    const req = request(options, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', reject);
    req.end();
  });
}

function rss(pid) {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return pages * 4096 + children.reduce((sum, child) => sum + rss(child), 0);
  } catch {
    return 0;
  }
}

async function poolFigures(sandbox) {
  const root = mkdtempSync(join(tmpdir(), 'fn-bench-'));
  const pool = new InstancePool({
    sandbox,
    timeoutMs: 10_000,
    memoryMb: 128,
    idleMs: 600_000,
    maxInstances: 50,
    maxBodyBytes: 6 << 20,
    platformUrl: 'http://127.0.0.1:9/v1',
    logs: { onLog() {} },
    root,
  });
  const send = async (id, path = '/') => {
    const answer = await pool.dispatch(
      { id, entry: '/_server/index.js', code, env: {} },
      { method: 'GET', url: `http://app.test${path}`, rawHeaders: ['Host', 'app.test'], body: null, clientIp: '127.0.0.1' },
    );
    answer.body.resume();
    await new Promise((resolve) => answer.body.on('end', resolve));
  };
  const cold = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await send(`cold_${i}`);
    cold.push(performance.now() - started);
  }
  await send('warm');
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) await send('warm', `/r${i}`);
  const perRequest = (performance.now() - started) / REQUESTS;
  const memory = median(pool.running.map((id) => rss(pool.pidOf(id))));
  await pool.shutdown(5000);
  rmSync(root, { recursive: true, force: true });
  return { sandbox: pool.sandbox.kind, coldStartMs: median(cold), perRequestMs: perRequest, idleRssMiB: memory / 1048576 };
}

async function bareFigures() {
  const dir = mkdtempSync(join(tmpdir(), 'fn-bare-'));
  writeFileSync(
    join(dir, 'main.js'),
    `${CODE.replace('export default', 'const handler =')}Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(port) }, handler.fetch);\n`,
  );
  const child = spawn(denoExecutable(), ['run', '--allow-net=127.0.0.1', join(dir, 'main.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))));
  const agent = new (await import('node:http')).Agent({ keepAlive: true });
  await get({ host: '127.0.0.1', port, path: '/', agent });
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) await get({ host: '127.0.0.1', port, path: `/r${i}`, agent });
  const perRequest = (performance.now() - started) / REQUESTS;
  const memory = rss(child.pid);
  child.kill();
  rmSync(dir, { recursive: true, force: true });
  return { sandbox: 'bare Deno.serve', perRequestMs: perRequest, idleRssMiB: memory / 1048576 };
}

const rows = [await bareFigures(), await poolFigures('bwrap'), await poolFigures('none')];
for (const row of rows) {
  console.log(
    `${row.sandbox.padEnd(16)} cold start ${row.coldStartMs === undefined ? '   -   ' : `${row.coldStartMs.toFixed(0).padStart(4)} ms`}  per request ${row.perRequestMs.toFixed(2)} ms  idle RSS ${row.idleRssMiB.toFixed(1)} MiB`,
  );
}

// Where a process spent its CPU: self time by package and by function, from the V8 CPU profile
// that `BENCH_CPU_PROFILE=<dir> npm run bench` (or `node --cpu-prof --cpu-prof-dir=<dir>`) wrote.
//   node bench/profile-summary.mjs <dir> [top functions, default 40] [from-to: seconds since the process started, as the
//   bench logs for each load when profiling]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dir, topArg = '40', window] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/profile-summary.mjs <directory with a .cpuprofile> [top]');
  process.exit(2);
}
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile in ${dir}`);
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));

const [from, to] = window ? window.split('-').map((t) => Number(t) * 1e6) : [0, Infinity];
const samplesPerNode = new Map();
let at = 0;
let total = 0;
for (const [i, id] of profile.samples.entries()) {
  at += profile.timeDeltas[i];
  if (at < from || at > to) continue;
  samplesPerNode.set(id, (samplesPerNode.get(id) ?? 0) + 1);
  total++;
}

/** node_modules/<package>, node:<module>, dist/<folder>, or V8's own entries ((garbage collector), (idle), …). */
function packageOf({ url, functionName }) {
  if (url.includes('node_modules/')) return url.replace(/.*node_modules\/((@[^/]+\/)?[^/]+).*/, '$1');
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (url.includes('/dist/')) return `dist/${url.replace(/.*\/dist\//, '').split('/')[0]}`;
  if (functionName.startsWith('(')) return functionName;
  return url || '(native)';
}

const byPackage = new Map();
const byFunction = new Map();
for (const [id, count] of samplesPerNode) {
  const frame = nodes.get(id).callFrame;
  const where = frame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/');
  const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + count);
  const pkg = packageOf(frame);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + count);
}

const pct = (count) => `${((100 * count) / total).toFixed(1).padStart(5)}%`;
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
const span = window ? `${window} s` : `${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`;
console.log(`${file}: ${total} samples over ${span}\n\nBy package`);
for (const [name, count] of top(byPackage, 30)) console.log(pct(count), name);
console.log('\nBy function (self time)');
for (const [name, count] of top(byFunction, Number(topArg))) console.log(pct(count), name);

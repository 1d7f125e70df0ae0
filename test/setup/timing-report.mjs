// Sums what timing-environment.cjs recorded: `node test/setup/timing-report.mjs <file> [top]` prints each
// project's file count, wall and CPU seconds, and the `top` files (default 15) by wall time with their CPU.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, top = '15'] = process.argv.slice(2);
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
const s = (ms) => (ms / 1000).toFixed(1);
const byProject = new Map();
for (const l of lines) {
  const p = byProject.get(l.project) ?? { files: 0, wallMs: 0, cpuMs: 0, childCpuMs: 0 };
  p.files += 1;
  p.wallMs += l.wallMs;
  p.cpuMs += l.cpuMs;
  p.childCpuMs += l.childCpuMs;
  byProject.set(l.project, p);
}
console.log('| project | files | wall s (sum) | CPU s | children CPU s |\n|---|---|---|---|---|');
for (const [name, p] of byProject) console.log(`| ${name} | ${p.files} | ${s(p.wallMs)} | ${s(p.cpuMs)} | ${s(p.childCpuMs)} |`);
console.log(`\n| file | project | wall s | CPU s | children CPU s |\n|---|---|---|---|---|`);
for (const l of [...lines].sort((a, b) => b.wallMs - a.wallMs).slice(0, Number(top)))
  console.log(`| ${relative(process.cwd(), l.file)} | ${l.project} | ${s(l.wallMs)} | ${s(l.cpuMs)} | ${s(l.childCpuMs)} |`);

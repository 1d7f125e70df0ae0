#!/usr/bin/env node
// The npm registry mirror on our build machines lacks some platform-specific optional packages
// (native bindings for macOS, Windows, ...). `npm install` then leaves them out of
// package-lock.json and `npm ci` refuses the lock as "out of sync". This adds the missing
// entries with their os/cpu, so npm ci skips them on other platforms exactly as it would with a
// complete lock. Run after `npm install` changes the lock: `node scripts/lock-platform-stubs.mjs`.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

const OS = {
  darwin: 'darwin',
  mac: 'darwin',
  linux: 'linux',
  win32: 'win32',
  win: 'win32',
  android: 'android',
  freebsd: 'freebsd',
  openharmony: 'openharmony',
};
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'armv7l', 'loong64', 'ppc64', 'riscv64', 's390x'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS[parts.find((p) => OS[p])];
  let cpu = parts.find((p) => CPU.includes(p));
  if (cpu === 'armv7l') cpu = 'arm';
  if (!cpu && parts.includes('eabi')) cpu = 'arm';
  const libc = parts.some((p) => p.startsWith('musl')) ? ['musl'] : parts.includes('gnu') || parts.some((p) => p.startsWith('gnueabi')) ? ['glibc'] : undefined;
  if (!os || !cpu) throw new Error(`cannot tell the platform of ${name}`);
  return { os: [os], cpu: [cpu], ...(libc ? { libc } : {}) };
}

let out = '';
try {
  execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts'], { stdio: ['ignore', 'pipe', 'pipe'] });
} catch (err) {
  out = String(err.stderr) + String(err.stdout);
}
const missing = [...out.matchAll(/Missing: (@?[^@\s]+)@(\S*) from lock file/g)];
if (missing.length === 0) {
  console.log('package-lock.json is complete');
  process.exit(0);
}
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
for (const [, name] of missing) {
  // The version wanted is whatever a dependent in the lock asks for in optionalDependencies.
  const wanted = Object.values(lock.packages)
    .map((p) => p.optionalDependencies?.[name])
    .find(Boolean);
  lock.packages[`node_modules/${name}`] = { version: wanted, optional: true, ...platformOf(name) };
  console.log(`stubbed ${name}@${wanted}`);
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync('package-lock.json', JSON.stringify(lock, null, 2) + '\n');

// Builds the SDK twice with tsc: ESM (dist/esm) and CommonJS (dist/cjs), both with .d.ts files.
//   node scripts/build.mjs [outRoot]   (default: this package; the dist/ folder goes under outRoot)
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const packageDir = join(import.meta.dirname, '..');
const dist = join(resolve(process.argv[2] ?? packageDir), 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

rmSync(dist, { recursive: true, force: true });
for (const [config, flavour] of [
  ['tsconfig.json', 'esm'],
  ['tsconfig.cjs.json', 'cjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', join(packageDir, config), '--outDir', join(dist, flavour)], { stdio: 'inherit' });
}
// The package is "type": "module"; this marks the CommonJS half as such.
mkdirSync(join(dist, 'cjs'), { recursive: true });
writeFileSync(join(dist, 'cjs/package.json'), '{ "type": "commonjs" }\n');
console.log(`built ${dist}/{esm,cjs}`);

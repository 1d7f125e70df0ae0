#!/usr/bin/env node
// Compiles src/ into dist/ with TypeScript and the @nestjs/swagger compiler plugin (which reads the
// DTOs' types and doc comments into the OpenAPI document), then copies the templates. This is what
// `nest build` did, without @nestjs/cli (whose dependencies need Node 22).
//
//   node scripts/build.mjs            full build (dist/ is emptied first)
//   node scripts/build.mjs --if-stale  only when a source is newer than the last build (npm start)
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
const SWAGGER_OPTIONS = { introspectComments: true, classValidatorShim: true, dtoFileNameSuffix: ['.dto.ts', '.entity.ts'] };
/** Files copied beside the compiled code, as they are (the functions' runner is run by Deno, not compiled for Node). */
const ASSETS = /\.(eta|css)$|^instance-runner\.js$/;

function newestSource(dir, newest = 0) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = entry.isDirectory() ? newestSource(path, newest) : Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = [join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), join(root, 'package-lock.json')];
  return newestSource(join(root, 'src')) > built || inputs.some((f) => existsSync(f) && statSync(f).mtimeMs > built);
}

function copyAssets(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copyAssets(path);
    else if (ASSETS.test(entry.name)) cpSync(path, join(dist, relative(join(root, 'src'), path)));
  }
}

// The compiler and the plugin are loaded only to build: `--if-stale` with nothing stale answers at once.
async function build() {
  const { default: ts } = await import('typescript');
  const { before: swaggerPlugin } = await import('@nestjs/swagger/plugin');
  const configPath = join(root, 'tsconfig.build.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  rmSync(dist, { recursive: true, force: true });
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, projectReferences: parsed.projectReferences });
  const emitted = program.emit(undefined, undefined, undefined, false, { before: [swaggerPlugin(SWAGGER_OPTIONS, program)] });
  const diagnostics = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics);
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
    process.stderr.write(`\nBuild failed: ${diagnostics.length} TypeScript error(s)\n`);
    process.exit(1);
  }
  copyAssets(join(root, 'src'));
  writeFileSync(stamp, new Date().toISOString());
}

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
const started = Date.now();
await build();
if (!process.argv.includes('--quiet')) console.log(`Built dist/ in ${((Date.now() - started) / 1000).toFixed(1)} s`);

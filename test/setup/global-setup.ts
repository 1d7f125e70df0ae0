import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs once per `npm test`, before any suite:
 *  1. builds dist/ (the child-process suites run `node dist/main.js`, as production does);
 *  2. migrates one embedded database; every embedded e2e suite starts from a copy of it instead
 *     of paying for initdb again. Workers inherit E2E_TEMPLATE_DIR.
 * (Jest loads this file as CommonJS, so it must not import the ESM sources; it runs dist/ instead.)
 */
export default async function globalSetup(): Promise<void> {
  const root = join(__dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'scripts/build.mjs'), '--quiet'], { cwd: root, stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'platform-e2e-template-'));
  execFileSync(process.execPath, [join(root, 'dist/migrate.js')], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  process.env.E2E_TEMPLATE_DIR = dir;
}

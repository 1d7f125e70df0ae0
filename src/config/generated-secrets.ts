import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Secrets the embedded default makes for itself on first start, each in its own file of DATA_DIR. */
export type GeneratedSecret = 'admin-token' | 'webhook-secret-key' | 'session-secret';

const MAKE: Record<GeneratedSecret, () => string> = {
  'admin-token': () => `adm_${randomBytes(32).toString('base64url')}`,
  'webhook-secret-key': () => randomBytes(32).toString('base64url'),
  'session-secret': () => randomBytes(32).toString('base64url'),
};

/**
 * Reads `<dataDir>/<name>`, or creates it (mode 0600, in a 0700 directory) with a random value.
 * Only the file's path is ever logged, never its content.
 */
export function readOrCreateSecret(dataDir: string, name: GeneratedSecret): { value: string; file: string; created: boolean } {
  const dir = resolve(dataDir);
  const file = join(dir, name);
  let created = false;
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, `${MAKE[name]()}\n`, { mode: 0o600, flag: 'wx' });
      created = true;
    } catch (err) {
      // Another process of this data directory made it first: read theirs.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  return { value: readFileSync(file, 'utf8').trim(), file, created };
}

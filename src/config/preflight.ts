import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { DataDirLock } from '../database/data-dir-lock.js';
import { AppConfig, loadConfig } from './app-config.js';
import { listenError } from './startup-errors.js';

/**
 * The checks `npm start` makes before it loads the app (about a second of module loading and the
 * whole boot): the settings, DATA_DIR not served by another process, the port free. A start that
 * cannot succeed says why in a fraction of a second. Each check is made again, for real, by the
 * start itself (the lock taken, the port bound): something that changes meanwhile is still told.
 */
export async function preflight(env: Record<string, string | undefined>): Promise<AppConfig> {
  const config = loadConfig(env);
  // A folder that does not exist yet is nobody's; the start creates it.
  const dataDir = resolve(config.DATA_DIR);
  if (config.embeddedDatabase && existsSync(dataDir)) DataDirLock.acquire(dataDir).release();
  // PORT=0 takes whatever port is free.
  if (config.PORT !== 0) await probePort(config);
  return config;
}

function probePort(config: Pick<AppConfig, 'PORT' | 'HOST'>): Promise<void> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', (err) => fail(listenError(err, config)));
    server.listen({ port: config.PORT, host: config.HOST }, () => server.close(() => done()));
  });
}

import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock, LOCK_FILE } from '../database/data-dir-lock.js';
import { ConfigError } from './app-config.js';
import { preflight } from './preflight.js';

describe('preflight', () => {
  let dir: string;
  let taken: Server | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'preflight-'));
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    if (taken) await new Promise((resolve) => taken!.close(resolve));
    taken = undefined;
  });

  const env = (more: Record<string, string> = {}) => ({ DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0', ...more });

  it('answers the config of a start that can go ahead, and leaves DATA_DIR as it was', async () => {
    const config = await preflight(env());
    expect([config.DATA_DIR, config.PORT]).toEqual([dir, 0]);
    expect(readdirSync(dir)).toEqual([]);
    // A DATA_DIR still to be made is not made here.
    await preflight(env({ DATA_DIR: join(dir, 'later') }));
    expect(existsSync(join(dir, 'later'))).toBe(false);
  });

  it('refuses a bad setting', async () => {
    await expect(preflight(env({ PORT: 'abc' }))).rejects.toThrow(new ConfigError('Invalid configuration: PORT must be a whole number from 0 to 65535'));
  });

  it('refuses a DATA_DIR another start holds, naming the holder, and leaves its lock alone', async () => {
    const lock = DataDirLock.acquire(dir);
    try {
      await expect(preflight(env())).rejects.toThrow(`DATA_DIR ${dir} is in use by this process (pid ${process.pid})`);
      expect(readdirSync(dir)).toEqual([LOCK_FILE]);
    } finally {
      lock.release();
    }
  });

  it('refuses a taken port, naming it and PORT, without touching DATA_DIR', async () => {
    taken = await new Promise<Server>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => resolve(server));
    });
    const port = (taken.address() as { port: number }).port;
    await expect(preflight(env({ PORT: String(port) }))).rejects.toThrow(`Port ${port} is in use: stop the other process or set PORT to another port`);
    expect(readdirSync(dir)).toEqual([]);
    // A free one passes, and is free again after.
    await new Promise((resolve) => taken!.close(resolve));
    taken = undefined;
    await preflight(env({ PORT: String(port) }));
    taken = await new Promise<Server>((resolve, reject) => {
      const server = createServer()
        .once('error', reject)
        .listen(port, '127.0.0.1', () => resolve(server));
    });
  });
});

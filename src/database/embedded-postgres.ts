import { mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { StartupError } from '../config/startup-errors.js';
import { DataDirLock } from './data-dir-lock.js';

/** The socket's name, as PostgreSQL names its own: `postgres` clients find it from the directory. */
const SOCKET_FILE = '.s.PGSQL.5432';

/**
 * PGlite (PostgreSQL compiled to WASM) kept in `<DATA_DIR>/pgdata`, served on a unix socket in
 * the data directory so TypeORM's ordinary postgres driver talks to it: same dialect, same
 * migrations as production. No TCP port is opened. PGlite is a single-connection database, so
 * the pool using it must have max 1 connection.
 *
 * One process per data directory (DataDirLock, taken before PGlite opens its files); a socket a
 * killed process left behind is removed once the lock is ours.
 */
export class EmbeddedPostgres {
  private constructor(
    readonly socketDir: string,
    private readonly lock: DataDirLock,
    private readonly db: { close(): Promise<void> },
    private readonly server: { stop(): Promise<void> },
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const dir = resolve(dataDir);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      throw new StartupError(`DATA_DIR ${dir} cannot be created: ${(err as Error).message}`);
    }
    const lock = DataDirLock.acquire(dir);
    let db: { close(): Promise<void> } | undefined;
    try {
      // Nobody else serves this directory (we hold its lock): a socket file here is a dead process's.
      rmSync(join(dir, SOCKET_FILE), { force: true });
      // Loaded lazily: a PostgreSQL deployment never pays for the WASM module.
      const { PGlite } = await import('@electric-sql/pglite');
      const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
      const pglite = await PGlite.create({ dataDir: join(dir, 'pgdata') });
      db = pglite;
      // The CJS and ESM typings of PGlite differ only in their #private brands.
      const server = new PGLiteSocketServer({ db: pglite as never, path: join(dir, SOCKET_FILE) });
      await server.start();
      return new EmbeddedPostgres(dir, lock, pglite, server);
    } catch (err) {
      await db?.close().catch(() => undefined);
      lock.release();
      throw err;
    }
  }

  async stop(): Promise<void> {
    try {
      await this.server.stop(); // closing the socket server removes its file
      await this.db.close();
    } finally {
      this.lock.release();
    }
  }
}

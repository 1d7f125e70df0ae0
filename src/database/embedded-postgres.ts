import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * PGlite (PostgreSQL compiled to WASM) kept in `<DATA_DIR>/pgdata`, served on a unix socket in
 * the data directory so TypeORM's ordinary postgres driver talks to it: same dialect, same
 * migrations as production. No TCP port is opened. PGlite is a single-connection database, so
 * the pool using it must have max 1 connection.
 */
export class EmbeddedPostgres {
  private constructor(
    readonly socketDir: string,
    private readonly db: { close(): Promise<void> },
    private readonly server: { stop(): Promise<void> },
  ) {}

  static async start(dataDir: string): Promise<EmbeddedPostgres> {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Loaded lazily: a PostgreSQL deployment never pays for the WASM module.
    const { PGlite } = await import('@electric-sql/pglite');
    const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
    const db = await PGlite.create({ dataDir: join(dir, 'pgdata') });
    // The CJS and ESM typings of PGlite differ only in their #private brands.
    const server = new PGLiteSocketServer({ db: db as never, path: join(dir, '.s.PGSQL.5432') });
    await server.start();
    return new EmbeddedPostgres(dir, db, server);
  }

  async stop(): Promise<void> {
    await this.server.stop();
    await this.db.close();
  }
}

import { Logger } from '@nestjs/common';
import { loadConfig } from './config/app-config.js';
import { startupErrorLine } from './config/startup-errors.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import { migrateDatabase } from './database/run-migrations.js';

/**
 * `npm run migrate`: applies pending migrations and exits, for a release step that migrates
 * before new instances start (they would also do it themselves, under the same lock).
 */
async function migrate(): Promise<void> {
  const config = loadConfig();
  const embedded = config.embeddedDatabase ? await EmbeddedPostgres.start(config.DATA_DIR) : undefined;
  try {
    const ran = await migrateDatabase({ url: config.DATABASE_URL, socketDir: embedded?.socketDir });
    new Logger('Migrations').log(ran.length ? `Done: ${ran.length} applied` : 'Done: already up to date');
  } finally {
    await embedded?.stop();
  }
}

migrate().catch((err) => {
  console.error(startupErrorLine(err));
  process.exit(1);
});

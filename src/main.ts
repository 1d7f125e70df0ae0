import 'reflect-metadata';
import { ConfigError } from './config/app-config.js';
import { logStartup, startServer } from './server.js';

async function main(): Promise<void> {
  const server = await startServer();
  logStartup(server);
  const shutdown = (signal: string) => {
    void server
      .close()
      .then(() => process.exit(0))
      .catch((err) => {
        console.error(`Shutdown after ${signal} failed`, err);
        process.exit(1);
      });
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error('Failed to start', err);
  }
  process.exit(1);
});

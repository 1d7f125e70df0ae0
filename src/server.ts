import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { configureApp, createFastifyAdapter } from './app.setup.js';
import { AppConfig, loadConfig } from './config/app-config.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import { createLogger } from './logging.js';

export interface RunningServer {
  app: NestFastifyApplication;
  config: AppConfig;
  /** Base address, e.g. http://127.0.0.1:3000 (after listen). */
  url: string;
  /** Stops taking requests, finishes in-flight ones, closes queues, database and embedded server. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Environment to read the config from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Listen on a port (default true). */
  listen?: boolean;
  /** Extra modules to mount beside the built-in ones (extensions, test fixtures). */
  modules?: Array<Type<unknown> | DynamicModule>;
}

/** Boots the whole service: config → embedded database (when no DATABASE_URL) → Nest on Fastify → listen. */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(options.env ?? process.env);
  const embedded = config.embeddedDatabase ? await EmbeddedPostgres.start(config.DATA_DIR) : undefined;
  try {
    const app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot(config, { url: config.DATABASE_URL, socketDir: embedded?.socketDir }, options.modules),
      createFastifyAdapter(createLogger(config), config),
      { bufferLogs: true, abortOnError: false },
    );
    configureApp(app);
    let url = '';
    if (options.listen === false) {
      await app.init();
      await app.getHttpAdapter().getInstance().ready();
    } else {
      await app.listen(config.PORT, config.HOST);
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
      // With PORT=0 the port is known only now; deployment urls must carry the real one.
      if (!config.PUBLIC_URL && config.PORT === 0) config.PUBLIC_URL = url;
    }
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= (async () => {
        await app.close();
        await embedded?.stop();
      })());
    return { app, config, url, close };
  } catch (err) {
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
}

export function logStartup(server: RunningServer): void {
  const logger = new Logger('Bootstrap');
  const { config } = server;
  const port = new URL(server.url).port;
  const where = `database ${config.embeddedDatabase ? `embedded in ${config.DATA_DIR}` : 'PostgreSQL'}, queue ${config.REDIS_URL ? 'Redis' : 'in-process'}`;
  // What it binds, and an address to open (a worker serves /health and /metrics only: no docs there).
  const open = config.runsHttpApi ? `; API at ${server.url}/v1, docs at ${server.url}/docs` : '';
  logger.log(`Listening on ${config.HOST}:${port} (${server.url}) as ${config.APP_ROLE === 'all' ? 'API and worker' : config.APP_ROLE} (${where})${open}`);
}

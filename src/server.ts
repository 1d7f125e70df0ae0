import { DynamicModule, Logger, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';
import { configureApp, createFastifyAdapter } from './app.setup.js';
import { AppConfig, loadConfig } from './config/app-config.js';
import { listenError } from './config/startup-errors.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import { createLogger, PinoNestLogger } from './logging.js';

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
    const logger = createLogger(config);
    // Nest logs through pino from the first line (at LOG_LEVEL), also when the start fails.
    const app = await NestFactory.create<NestFastifyApplication>(
      AppModule.forRoot(config, { url: config.DATABASE_URL, socketDir: embedded?.socketDir }, options.modules),
      createFastifyAdapter(logger, config),
      { logger: new PinoNestLogger(logger), abortOnError: false },
    );
    configureApp(app);
    let url = '';
    if (options.listen === false) {
      await app.init();
      await app.getHttpAdapter().getInstance().ready();
    } else {
      await listen(app, config).catch(async (err: unknown) => {
        await whileClosing(() => app.close()).catch(() => undefined);
        throw err;
      });
      const address = app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : config.PORT;
      url = `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${port}`;
      // With PORT=0 the port is known only now; deployment urls must carry the real one.
      if (!config.PUBLIC_URL && config.PORT === 0) config.PUBLIC_URL = url;
    }
    let closing: Promise<void> | undefined;
    const close = () =>
      (closing ??= whileClosing(async () => {
        await app.close();
        await embedded?.stop();
      }));
    return { app, config, url, close };
  } catch (err) {
    await embedded?.stop().catch(() => undefined);
    throw err;
  }
}

/** ioredis' rejection of the commands still queued on a connection that is being closed. */
const CONNECTION_CLOSED = 'Connection is closed.';

/**
 * Runs a shutdown. A Bull queue closed soon after it started leaves rejected Redis commands that
 * nobody awaits (OptimalBits/bull#2222, "wontfix"): Node would end the process on them with a raw
 * trace instead of the clean exit (or the one-line start-up error). Those, and only those, are
 * expected while closing; any other unhandled rejection stays fatal.
 */
async function whileClosing<T>(work: () => Promise<T>): Promise<T> {
  const expected = (reason: unknown) => {
    if (!(reason instanceof Error && reason.message === CONNECTION_CLOSED)) throw reason;
  };
  process.on('unhandledRejection', expected);
  try {
    return await work();
  } finally {
    // Rejections are reported after the microtasks of the turn that rejected them: let those through.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', expected);
  }
}

/**
 * Binds the HTTP server. Through Fastify rather than `app.listen`, which logs a failure at error
 * level before rethrowing it: a taken port is told once, as a StartupError naming PORT or HOST.
 */
async function listen(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  await app.init();
  try {
    await app.getHttpAdapter().getInstance().listen({ port: config.PORT, host: config.HOST });
  } catch (err) {
    throw listenError(err, config);
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

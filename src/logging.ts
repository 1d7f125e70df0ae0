import type { Params } from 'nestjs-pino';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from './config/app-config.js';

/** Paths whose values never reach a log line: credentials in headers and bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.body',
  '*.client_secret',
  '*.clientSecret',
  '*.access_token',
  '*.apiKey',
  '*.secret',
  '*.token',
  '*.prompt',
];

export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.LOG_LEVEL,
      // The id was chosen by Fastify (see app.setup.ts) and put on the raw request.
      genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id?: string }).id ?? 'unknown',
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      customProps: (req: IncomingMessage) => ({ requestId: (req as IncomingMessage & { id?: string }).id }),
      serializers: {
        // Log the path without its query string: it may carry cursors or e-mails.
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url?.split('?')[0] }),
      },
      autoLogging: { ignore: (req: IncomingMessage) => req.url === '/health/live' || req.url === '/metrics' },
    },
  };
}

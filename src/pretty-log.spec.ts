import { pino } from 'pino';
import { loadConfig } from './config/app-config.js';
import { PinoNestLogger, REDACTED_PATHS } from './logging.js';
import { prettyDestination, prettyLine } from './pretty-log.js';

/** A pino logger as createLogger makes it, writing pretty lines into an array. */
function prettyLogger(level = 'info') {
  const lines: string[] = [];
  const output = { isTTY: false, write: (text: string) => lines.push(text) } as unknown as NodeJS.WriteStream;
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, prettyDestination(output));
  return { logger, lines };
}

const TIME = Date.UTC(2026, 10, 25, 12, 4, 5, 123);
/** A line as pino writes it: these fields, at info unless they say otherwise, at TIME. */
const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 30, time: TIME, pid: 1, hostname: 'vm', ...fields });

describe('LOG_FORMAT=pretty', () => {
  it('writes one readable line per message: time, level, context, message, other fields', () => {
    expect(prettyLine(line({ context: 'Bootstrap', msg: 'Listening on 0.0.0.0:3000', role: 'all' }))).toBe(
      '12:04:05.123 INFO  [Bootstrap] Listening on 0.0.0.0:3000 role=all\n',
    );
  });

  it('writes a request as method, path, status and time', () => {
    const request = { requestId: 'r1', req: { method: 'GET', url: '/v1/apps' }, res: { statusCode: 200 }, responseTime: 3.1, msg: 'request completed' };
    expect(prettyLine(line(request))).toBe('12:04:05.123 INFO  GET /v1/apps 200 3.1 ms\n');
  });

  it("puts an error's stack on the lines below, indented", () => {
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.js:1:1)' };
    expect(prettyLine(line({ level: 50, msg: 'Unhandled error', err }))).toBe('12:04:05.123 ERROR Unhandled error\n  Error: boom\n      at x (y.js:1:1)\n');
  });

  it('colours the level and context only when asked (on a terminal)', () => {
    const json = line({ level: 40, context: 'Secrets', msg: 'careful' });
    expect(prettyLine(json, true)).toContain('\x1b[33mWARN \x1b[0m');
    expect(prettyLine(json, false)).not.toContain('\x1b[');
  });

  it('shows what JSON would, redactions included', () => {
    const { logger, lines } = prettyLogger();
    logger.info({ req: { headers: { authorization: 'Bearer sk_secret' } }, user: { email: 'ada@example.com' } }, 'hello');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/sk_secret|ada@example\.com/);
    expect(lines[0]).toContain('[redacted]');
  });

  it('is chosen by LOG_FORMAT; unset, by whether stdout is a terminal', () => {
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(loadConfig({}).logFormat).toBe(process.stdout.isTTY ? 'pretty' : 'json');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow('LOG_FORMAT must be json or pretty');
  });
});

describe("Nest's start-up lines", () => {
  it('puts the module and route lines at debug, and keeps the rest at info', () => {
    const { logger, lines } = prettyLogger('info');
    const nest = new PinoNestLogger(logger);
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Mapped {/v1/apps, GET} route', 'RouterExplorer');
    nest.log('AppsController {/v1/apps}:', 'RoutesResolver');
    nest.log('Starting Nest application...', 'NestFactory');
    nest.log('Applied 14 migration(s)', 'Migrations');
    expect(lines.map((l) => l.slice(13))).toEqual(['INFO  [Migrations] Applied 14 migration(s)\n']);

    const verbose = prettyLogger('debug');
    new PinoNestLogger(verbose.logger).log('Mapped {/v1/apps, GET} route', 'RouterExplorer');
    expect(verbose.lines[0]).toContain('DEBUG [RouterExplorer] Mapped {/v1/apps, GET} route');
  });
});

/**
 * What every CLI command shares (cli.ts, cli-split.ts): parsing its options, the client from the environment, and
 * how it prints its answer, its refusal and a wrong command line. Exit codes: 0 done, 1 the server refused or could
 * not be reached, 2 the command line is wrong.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PlatformClient } from './client.js';
import { PlatformError } from './errors.js';

export const ENVIRONMENT = `Environment: PLATFORM_API_KEY (an API key of the account), PLATFORM_BASE_URL (default http://localhost:3000).`;

/** A wrong command line: the problem and the command's usage on stderr, exit code 2 (cli.ts's main prints it). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage: string,
  ) {
    super(message);
  }
}

export const HELP = { help: { type: 'boolean', short: 'h', default: false } } as const;

/** The command's options and positionals (its options include HELP); a wrong option is a UsageError with its usage. */
export function parse<T extends ParseArgsConfig>(config: T, text: string): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (err) {
    throw new UsageError((err as Error).message, text);
  }
}

/** A client with the key from the environment. */
export function clientFor(text: string): PlatformClient {
  const apiKey = process.env.PLATFORM_API_KEY;
  if (!apiKey) throw new UsageError('Set PLATFORM_API_KEY to an API key of the account', text);
  return new PlatformClient({ apiKey, baseUrl: process.env.PLATFORM_BASE_URL ?? 'http://localhost:3000' });
}

/** The server's refusal (or an unreachable server) as the CLI prints it: `<what> failed: message (reason)`, or `{"error": …}` with --json. */
export function failed(what: string, err: unknown, json: boolean): number {
  const error = err instanceof PlatformError ? { status: err.status, reason: err.reason, message: err.message } : { message: (err as Error).message };
  if (json) print(JSON.stringify({ error }));
  else console.error(`${what} failed: ${error.message}${error.reason ? ` (${error.reason})` : ''}`);
  return 1;
}

/** A line on stdout: what the command answers (the url, the JSON object, a log line), and its progress. */
export function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** The command's usage on stdout, exit code 0. */
export function help(text: string): number {
  print(text);
  return 0;
}

/** A wrong command line's problem and usage on stderr, exit code 2. */
export function usage(problem: string, text: string): number {
  console.error(`${problem}\n\n${text}`);
  return 2;
}

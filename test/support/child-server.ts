import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  /** What it printed on stderr alone (start-up errors; logs go to stdout). */
  stderr(): string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Runs `node dist/main.js` (built by global-setup) as production does, and waits until it
 * logs that it listens (an embedded one took over 30 s on a loaded 2-core run, hence 90 s).
 * Used where a real process must die or be signalled.
 */
export async function startChildServer(env: Record<string, string>, timeoutMs = 90_000, logLevel: 'info' | 'debug' | 'trace' = 'info'): Promise<ChildServer> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    // At info level or below: readiness is read from the log.
    env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: logLevel },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => {
    out += d;
    err += d;
  });
  const exited = new Promise<number | string>((resolve) => child.once('close', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    // A server that did not start in time is killed: left running, it would hold its port and data and load the machine.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const check = () => {
      const m = /Listening on \S+ \((http:\/\/[^)\s]+)\)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${out}`));
    });
  });
  return {
    process: child,
    url,
    output: () => out,
    stderr: () => err,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export interface ScriptResult {
  code: number | null;
  /** stdout and stderr as they came. */
  output: string;
  stdout: string;
  stderr: string;
}

/** Runs `node dist/<script>` to completion; resolves with its exit code and output. */
export function runDistScript(script: string, env: Record<string, string>): Promise<ScriptResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', script)], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    const result: ScriptResult = { code: null, output: '', stdout: '', stderr: '' };
    child.stdout.on('data', (d) => ((result.output += d), (result.stdout += d)));
    child.stderr.on('data', (d) => ((result.output += d), (result.stderr += d)));
    // 'close', not 'exit': every byte of both pipes has arrived.
    child.once('close', (code) => resolve({ ...result, code }));
  });
}

/** The request log lines ("request completed") of the server whose logged path starts with `prefix`: method, path, status. */
export function requestLogLines(server: ChildServer, prefix: string): Array<[string, string, number]> {
  return server
    .output()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res?: { statusCode: number } })
    .filter((line) => line.msg === 'request completed' && line.req?.url.startsWith(prefix))
    .map((line) => [line.req!.method, line.req!.url, line.res!.statusCode]);
}

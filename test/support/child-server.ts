import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the exit code (or signal name). */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

/**
 * Runs `node dist/main.js` (built by global-setup) as production does, and waits until it
 * logs that it listens. Used where a real process must die or be signalled.
 */
export async function startChildServer(env: Record<string, string>, timeoutMs = 30_000): Promise<ChildServer> {
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    // At info level: readiness is read from the log.
    env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
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
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs `node dist/<script>` to completion; resolves with its exit code and output. */
export function runDistScript(script: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist', script)], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { StartupError } from '../config/startup-errors.js';
import { BWRAP_CONFINEMENT, type SandboxKind } from './instance-command.js';

/** What this machine runs instances in, decided once at start. */
export interface Sandbox {
  kind: SandboxKind;
  tools: { bwrap?: string; nice?: string };
  /** The shared libraries Deno loads (bound into the bwrap sandbox). */
  libraries: string[];
  /** Said once at start when instances run without the OS sandbox. */
  warning?: string;
}

/** An executable on PATH (or the usual system folders), or undefined. */
export function findExecutable(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const folder of [...path.split(delimiter), '/usr/bin', '/bin', '/usr/sbin']) {
    if (!folder || !isAbsolute(folder)) continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The absolute paths in `ldd`'s answer (`libc.so.6 => /lib/…/libc.so.6 (0x…)`, `/lib64/ld-linux-x86-64.so.2 (0x…)`). */
export function parseLdd(output: string): string[] {
  const paths = new Set<string>();
  for (const line of output.split('\n')) {
    const match = /(?:=>\s*)?(\/\S+)\s+\(0x[0-9a-f]+\)/i.exec(line);
    if (match) paths.add(match[1]);
  }
  return [...paths];
}

function sharedLibraries(executable: string): string[] {
  const ldd = findExecutable('ldd');
  if (!ldd) return [];
  try {
    return parseLdd(execFileSync(ldd, [executable], { encoding: 'utf8', timeout: 10_000 }));
  } catch {
    return []; // a static executable: ldd says "not a dynamic executable"
  }
}

/** Whether bubblewrap starts Deno here (a container may forbid the namespaces it needs). */
function bwrapWorks(bwrap: string, deno: string, libraries: string[]): { ok: true } | { ok: false; why: string } {
  const binds = [deno, ...libraries].flatMap((path) => ['--ro-bind', path, path === deno ? '/deno' : path]);
  const probe = spawnSync(bwrap, [...BWRAP_CONFINEMENT, '--clearenv', ...binds, '--dev', '/dev', '/deno', '--version'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (probe.status === 0 && probe.stdout.startsWith('deno ')) return { ok: true };
  return { ok: false, why: (probe.stderr || probe.error?.message || `exit ${probe.status}`).trim().split('\n')[0] };
}

/**
 * FUNCTIONS_SANDBOX resolved: `bwrap` must work when asked for (or the start stops, naming why); unset, it is used
 * when it works, else instances run under Deno's permission flags alone, with a warning.
 */
export function chooseSandbox(configured: SandboxKind | undefined, deno: string): Sandbox {
  const nice = findExecutable('nice');
  const real = realpathSync(deno);
  const libraries = sharedLibraries(real);
  if (configured === 'none') {
    return {
      kind: 'none',
      tools: { nice },
      libraries,
      warning: 'FUNCTIONS_SANDBOX=none: function instances run with Deno’s permission flags only, without an OS sandbox',
    };
  }
  const bwrap = findExecutable('bwrap');
  const works = bwrap ? bwrapWorks(bwrap, real, libraries) : { ok: false as const, why: 'bwrap is not installed (Debian: apt-get install bubblewrap)' };
  if (works.ok) return { kind: 'bwrap', tools: { bwrap, nice }, libraries };
  if (configured === 'bwrap') throw new StartupError(`FUNCTIONS_SANDBOX=bwrap, but bubblewrap cannot run Deno here: ${works.why}`);
  return {
    kind: 'none',
    tools: { nice },
    libraries,
    warning: `Function instances run with Deno’s permission flags only, without an OS sandbox: ${works.why} (set FUNCTIONS_SANDBOX=none to say this is meant)`,
  };
}

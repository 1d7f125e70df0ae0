/**
 * The command that starts one instance: Deno with the narrowest permission flags that run the runner and the
 * deployment's code, inside bubblewrap when the sandbox is `bwrap` (docs/functions.md says what each layer stops).
 */

/** bubblewrap's confinement: its own user (nobody, no capabilities), PID, IPC, UTS, cgroup and network namespaces (no network at all), ended with the platform. */
export const BWRAP_CONFINEMENT: readonly string[] = ['--unshare-all', '--uid', '65534', '--gid', '65534', '--cap-drop', 'ALL', '--die-with-parent'];

export type SandboxKind = 'bwrap' | 'none';

/** Where an instance's parts are on this machine. */
export interface InstanceLayout {
  sandbox: SandboxKind;
  /** The Deno executable. */
  deno: string;
  /** The runner script (src/functions/runner/instance-runner.js). */
  runner: string;
  /** The deployment's code, materialised read-only. */
  codeDir: string;
  /** The instance's own folder: the runner's socket and Deno's cache. */
  runDir: string;
  /** The egress: a Unix socket (bwrap, no network inside) or a port on 127.0.0.1 (none). */
  egress: { kind: 'unix'; path: string } | { kind: 'tcp'; port: number };
  /** The V8 heap limit. */
  memoryMb: number;
  /** The shared libraries the Deno executable loads (bwrap binds exactly these). */
  libraries: string[];
  /** Absolute paths of `bwrap` (with the bwrap sandbox) and `nice` (when the system has it). */
  tools: { bwrap?: string; nice?: string };
}

/** The paths as the runner sees them, and how to start it. */
export interface InstanceCommand {
  file: string;
  args: string[];
  env: Record<string, string>;
  /** The runner's settings that depend on where things are mounted. */
  inside: { entryRoot: string; codePrefixes: string[]; socket: string; egress: { kind: 'unix'; path: string } | { kind: 'tcp'; url: string } };
}

export const SOCKET_NAME = 'http.sock';
/** The one host name the runner's fetch is allowed (it never resolves: the egress socket or port carries it). */
export const EGRESS_HOST = 'egress.invalid';
/** The priority instances run at: below the platform's, so a busy instance cannot take the CPU the API needs. */
export const INSTANCE_NICENESS = 10;

export function instanceCommand(layout: InstanceLayout): InstanceCommand {
  const sandboxed = layout.sandbox === 'bwrap';
  const code = sandboxed ? '/code' : layout.codeDir;
  const run = sandboxed ? '/run/instance' : layout.runDir;
  const socket = `${run}/${SOCKET_NAME}`;
  const runner = sandboxed ? '/runner.js' : layout.runner;
  const deno = sandboxed ? '/deno' : layout.deno;
  const egressPath = sandboxed ? '/egress.sock' : layout.egress.kind === 'unix' ? layout.egress.path : undefined;
  const egress = egressPath
    ? { kind: 'unix' as const, path: egressPath }
    : { kind: 'tcp' as const, url: `http://127.0.0.1:${(layout.egress as { port: number }).port}/` };

  // Read: the code, and the two sockets (Deno asks read, write and net of a Unix socket it uses; the runner revokes
  // its own socket's once it listens). No --allow-env, -run, -ffi, -sys, -import: the variables come on stdin.
  const read = [code, socket, ...(egress.kind === 'unix' ? [egress.path] : [])];
  const write = [socket, ...(egress.kind === 'unix' ? [egress.path] : [])];
  const net = [`unix:${socket}`, ...(egress.kind === 'unix' ? [`unix:${egress.path}`, EGRESS_HOST] : [`127.0.0.1:${new URL(egress.url).port}`])];
  const denoArgs = [
    'run',
    '--no-prompt',
    '--no-remote',
    '--no-npm',
    '--no-config',
    '--no-lock',
    // request.signal aborts only when the visitor goes away, not when an answer is complete.
    '--unstable-no-legacy-abort',
    `--allow-read=${read.join(',')}`,
    `--allow-write=${write.join(',')}`,
    `--allow-net=${net.join(',')}`,
    `--v8-flags=--max-old-space-size=${layout.memoryMb}`,
    runner,
  ];
  const env = { NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: `${run}/deno` };
  const inside = { entryRoot: code, codePrefixes: [`file://${code}/`, `${code}/`], socket, egress };
  const start = (file: string, args: string[]) =>
    layout.tools.nice ? { file: layout.tools.nice, args: ['-n', String(INSTANCE_NICENESS), file, ...args] } : { file, args };
  if (!sandboxed) return { ...start(deno, denoArgs), env, inside };
  if (!layout.tools.bwrap) throw new Error('the bwrap sandbox needs the path of bwrap');

  const bwrap = [
    ...BWRAP_CONFINEMENT,
    '--new-session',
    '--clearenv',
    ...Object.entries(env).flatMap(([name, value]) => ['--setenv', name, value]),
    // Nothing of the host but the Deno executable, its libraries, the runner and this deployment's code (read-only),
    // the egress socket (a socket file: nothing can be written through it) and the instance's own folder.
    '--ro-bind',
    layout.deno,
    '/deno',
    ...layout.libraries.flatMap((library) => ['--ro-bind', library, library]),
    '--ro-bind',
    layout.runner,
    '/runner.js',
    '--ro-bind',
    layout.codeDir,
    '/code',
    '--bind',
    layout.runDir,
    run,
    '--ro-bind',
    layout.egress.kind === 'unix' ? layout.egress.path : '/dev/null',
    '/egress.sock',
    '--dev',
    '/dev',
    '--remount-ro',
    '/',
    '--chdir',
    code,
    deno,
    ...denoArgs,
  ];
  return { ...start(layout.tools.bwrap, bwrap), env: {}, inside };
}

import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeWithProgram } from './skips.js';
import { until } from './webhook-receiver.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** The Caddyfile of docker/compose.yaml and of the docs: the test runs this very file. */
export const CADDYFILE = join(ROOT, 'docker', 'Caddyfile');
/** Debian's caddy (`apt-get install caddy`; .ci/run installs it). */
export const CADDY_PATH = process.env.CADDY_PATH ?? '/usr/bin/caddy';

/** `describe` when caddy is installed (see describeWithProgram; .ci/run sets REQUIRE_CADDY=1). */
export function describeWithCaddy(name: string, fn: () => void): void {
  describeWithProgram(CADDY_PATH, process.env.REQUIRE_CADDY === '1', 'apt-get install caddy, or set CADDY_PATH')(name, fn);
}

export interface RunningCaddy {
  httpsPort: number;
  /** Its local authority's root certificate (PEM), to trust its `tls internal` certificates. */
  rootCa(): string;
  /** What it logged (JSON lines), for failures. */
  log(): string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (closed again: the caller binds it next). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs caddy on docker/Caddyfile in front of the service at 127.0.0.1:`upstreamPort`: high ports, the
 * admin endpoint off, a storage folder of its own (deleted by `stop`), the local authority for every
 * certificate, and the settings given in `env` (SITES_DOMAIN, PUBLIC_URL, HTTPS_PORT…). Resolves once it listens.
 */
export async function startCaddy(upstreamPort: number, env: Record<string, string>): Promise<RunningCaddy> {
  const dir = mkdtempSync(join(tmpdir(), 'caddy-e2e-'));
  const storage = join(dir, 'storage');
  const httpPort = await freePort();
  const httpsPort = env.HTTPS_PORT ? Number(env.HTTPS_PORT) : await freePort();
  let output = '';
  const child: ChildProcess = spawn(CADDY_PATH, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    env: {
      PATH: process.env.PATH ?? '',
      // Its autosaved config and anything else it keeps go to the test's folder, not the home directory.
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      PLATFORM_HOST: '127.0.0.1',
      PLATFORM_PORT: String(upstreamPort),
      HTTP_PORT: String(httpPort),
      HTTPS_PORT: String(httpsPort),
      CADDY_ADMIN: 'off',
      CADDY_STORAGE: storage,
      SITES_TLS: 'internal',
      CUSTOM_DOMAINS_ISSUER: 'internal',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let gone = false;
  void exited.then(() => (gone = true));
  const rootPath = join(storage, 'pki', 'authorities', 'local', 'root.crt');
  try {
    // Serving once it has issued the *.SITES_DOMAIN certificate at start (its root is made on the way).
    await until(() => gone || output.includes('serving initial configuration'), 20_000, 'caddy to start');
    if (gone) throw new Error(`caddy exited:\n${output}`);
    await until(() => gone || existsSync(rootPath), 20_000, "caddy's local authority");
    if (gone) throw new Error(`caddy exited:\n${output}`);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(err as Error).message}\n${output}`, { cause: err });
  }
  return {
    httpsPort,
    rootCa: () => readFileSync(rootPath, 'utf8'),
    log: () => output,
    async stop() {
      if (!gone) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A failure that stops the start, whose message is the one line an operator reads: what is wrong
 * and which setting or process to look at (a bad variable, a taken port, a DATA_DIR in use).
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * A failure to bind PORT on HOST in words (a StartupError naming the setting), or the error itself
 * when it is none of the usual ones.
 */
export function listenError(err: unknown, { PORT, HOST }: { PORT: number; HOST: string }): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') return new StartupError(`Port ${PORT} is in use: stop the other process or set PORT to another port`);
  if (code === 'EACCES') return new StartupError(`Port ${PORT} needs privileges this process lacks: set PORT to 1024 or above`);
  if (code === 'EADDRNOTAVAIL') return new StartupError(`HOST ${HOST} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all`);
  return err;
}

/** Network errors of a connection the start needs (the database), told in words. */
const CONNECT_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ECONNRESET: 'connection reset',
};

/**
 * The one line printed for whatever stopped the start (`main.ts`, `migrate.ts`): a StartupError's
 * own message, a connection that failed named by address, else the error's first line.
 */
export function startupErrorLine(err: unknown, env: Record<string, string | undefined> = process.env): string {
  if (err instanceof StartupError) return err.message;
  const e = err as Partial<NodeJS.ErrnoException & { address: string; port: number }> | undefined;
  if (e?.code && CONNECT_ERRORS[e.code] && e.address) {
    const where = e.port ? `${e.address}:${e.port}` : e.address;
    const setting = (['DATABASE_URL', 'REDIS_URL'] as const).find((name) => e.port && urlPort(env[name]) === e.port);
    return `Cannot connect to ${where}${setting ? ` (${setting})` : ''}: ${CONNECT_ERRORS[e.code]}`;
  }
  const message = err instanceof Error ? err.message : String(err);
  return `Failed to start: ${message.split('\n', 1)[0]}`;
}

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379, 'rediss:': 6379 };

function urlPort(url: string | undefined): number | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  } catch {
    return undefined;
  }
}

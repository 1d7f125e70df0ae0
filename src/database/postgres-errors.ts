import { QueryFailedError } from 'typeorm';

/** SQLSTATE 23505: a unique index refused the row. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string })?.code === '23505';
}

/** The SQLSTATE PostgreSQL answered a failed query with (through TypeORM's wrapper or not), or undefined (no answer: a network error). */
export function sqlStateOf(err: unknown): string | undefined {
  const answer = (err instanceof QueryFailedError ? err.driverError : err) as { code?: unknown; severity?: unknown } | null | undefined;
  // The driver's DatabaseError carries the server's severity; a socket error's `code` (EPIPE…) is not a SQLSTATE.
  if (typeof answer?.severity !== 'string' || typeof answer.code !== 'string') return undefined;
  return answer.code;
}

/**
 * Whether a write failed on the rows' own data (SQLSTATE class 22, data exception: a NUL, a value
 * too long or out of range; class 23, integrity constraint violation) rather than on the database
 * being unreachable, overloaded or shutting down: the former fails again however often it is
 * retried, the latter passes later.
 */
export function isDataError(err: unknown): boolean {
  const state = sqlStateOf(err);
  return state !== undefined && (state.startsWith('22') || state.startsWith('23'));
}

/**
 * A failed query, as it may be logged: the SQL and the error code, never the parameters (they can
 * hold personal data). Anything else comes back as it is.
 */
export function withoutQueryParameters(err: unknown): unknown {
  if (!(err instanceof QueryFailedError)) return err;
  const code = (err.driverError as { code?: string })?.code;
  return { type: 'QueryFailedError', message: err.message, code, query: err.query, stack: err.stack };
}

/** SQLSTATEs that only client input can cause here: a NUL or unencodable character, a date PostgreSQL cannot hold. */
const CLIENT_INPUT_STATES: Record<string, string> = {
  '22021': 'A value in the request holds a character that cannot be stored',
  '22P05': 'A value in the request holds a character that cannot be stored',
  '22007': 'A date in the request is not valid',
  '22008': 'A date in the request is outside years 1-9999',
};

/**
 * A safety net behind the request checks: the client-facing message for a query that failed on
 * client input, or undefined for anything else (a 500).
 */
export function clientInputProblem(err: unknown): string | undefined {
  if (!(err instanceof QueryFailedError)) return undefined;
  return CLIENT_INPUT_STATES[(err.driverError as { code?: string })?.code ?? ''];
}

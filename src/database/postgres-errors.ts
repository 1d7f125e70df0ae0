import { QueryFailedError } from 'typeorm';

/** SQLSTATE 23505: a unique index refused the row. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string })?.code === '23505';
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

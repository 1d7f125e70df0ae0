import { QueryFailedError } from 'typeorm';

/** SQLSTATE 23505: a unique index refused the row. */
export function isUniqueViolation(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string })?.code === '23505';
}

/**
 * Conditional suites that say when they do not run: a skipped block prints one line naming it, the
 * project and why, so a green run never hides what it did not test.
 */

import { existsSync } from 'node:fs';
import { basename } from 'node:path';

/** The project this file runs in (see jest.config.cjs). */
const PROJECT = process.env.E2E_TARGET ? `e2e-${process.env.E2E_TARGET}` : 'unit';

/** Why a PostgreSQL + Redis block does not run here, or false when it does. */
export const UNLESS_REDIS: string | false =
  process.env.E2E_TARGET === 'postgres' && process.env.REDIS_URL ? false : 'needs PostgreSQL and Redis (runs in e2e-postgres with REDIS_URL set)';

/** Why a PostgreSQL block does not run here, or false when it does. */
export const UNLESS_POSTGRES: string | false = process.env.E2E_TARGET === 'postgres' ? false : 'needs PostgreSQL (runs in e2e-postgres)';

/** Why an embedded-database block does not run here, or false when it does. */
export const UNLESS_EMBEDDED: string | false =
  process.env.E2E_TARGET === 'postgres' ? 'concerns the embedded database in DATA_DIR only (runs in e2e-embedded)' : false;

function say(name: string, why: string): void {
  // Straight to stderr: one line, not console.warn's four with a stack location.
  process.stderr.write(`skipped in ${PROJECT}: "${name}" — ${why}\n`);
}

/** `describe`, or (when `why` is a reason) a skipped `describe` that says so. */
export function describeUnless(why: string | false): (name: string, fn: () => void) => void {
  return (name, fn) => {
    if (why === false) return describe(name, fn);
    say(name, why);
    describe.skip(name, fn);
  };
}

/** `it`, or (when `why` is a reason) a skipped `it` that says so. */
export function itUnless(why: string | false): (name: string, fn: jest.ProvidesCallback, timeout?: number) => void {
  return (name, fn, timeout) => {
    if (why === false) return it(name, fn, timeout);
    say(name, why);
    it.skip(name, fn, timeout);
  };
}

/**
 * `describe` when the program at `path` is installed; without it the suite is skipped with a message —
 * unless `required` (CI's REQUIRE_BROWSER=1, REQUIRE_CADDY=1), where a missing program fails the run
 * instead of hiding it.
 */
export function describeWithProgram(path: string, required: boolean, install: string): (name: string, fn: () => void) => void {
  return describeUnless(!existsSync(path) && !required && `no ${basename(path)} at ${path} (${install})`);
}

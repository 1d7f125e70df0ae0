import { linkSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StartupError } from '../config/startup-errors.js';

/** The lock file in DATA_DIR: the pid of the process that serves the embedded database. */
export const LOCK_FILE = 'server.pid';

/** Data directories this process holds (a second in-process start on one of them is refused too). */
const HELD = new Set<string>();

export class DataDirInUseError extends StartupError {}

/**
 * One process per DATA_DIR: PGlite keeps the whole database in that folder and two instances on
 * it would corrupt it. The lock is a file holding the owner's pid, made atomically (written aside,
 * then hard-linked into place, so it never exists half-written). A lock whose process is gone —
 * killed, or the machine restarted — is stale and taken over, as PostgreSQL does with
 * postmaster.pid (its pid, or our parent's, may have been reused by a container restart).
 */
export class DataDirLock {
  private constructor(
    private readonly dir: string,
    private readonly file: string,
  ) {}

  /** Takes the lock on `dir` (an absolute path), or throws DataDirInUseError naming the holder. */
  static acquire(dir: string): DataDirLock {
    const file = join(dir, LOCK_FILE);
    if (HELD.has(dir)) throw inUse(dir, process.pid);
    const mine = `${file}.${process.pid}.new`;
    writeFileSync(mine, `${process.pid}\n`, { mode: 0o600 });
    try {
      // A few rounds: another process may take over or release the lock while we look at it.
      for (let round = 0; round < 5; round++) {
        try {
          linkSync(mine, file);
          HELD.add(dir);
          return new DataDirLock(dir, file);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        const holder = readPid(file);
        if (holder === undefined) continue; // released meanwhile (or unreadable: taken over below)
        if (isAlive(holder)) throw inUse(dir, holder);
        removeIfStill(file, holder);
      }
      throw new DataDirInUseError(`DATA_DIR ${dir} is being locked and unlocked by other processes: stop them or set DATA_DIR to another folder`);
    } finally {
      unlinkSync(mine);
    }
  }

  /** Removes the lock file (when it is still ours). */
  release(): void {
    if (!HELD.delete(this.dir)) return;
    if (readPid(this.file) === process.pid) unlinkSync(this.file);
  }
}

function inUse(dir: string, pid: number): DataDirInUseError {
  const who = pid === process.pid ? `this process (pid ${pid})` : `process ${pid}`;
  return new DataDirInUseError(`DATA_DIR ${dir} is in use by ${who}: stop it, or set DATA_DIR to another folder`);
}

function readPid(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const pid = Number(text.trim());
  // Not a pid (a damaged file): nobody can hold it.
  return Number.isSafeInteger(pid) && pid > 0 ? pid : 0;
}

function isAlive(pid: number): boolean {
  // Our own pid or our parent's in a stale file: a restart (in a container) reused them.
  if (pid === 0 || pid === process.pid || pid === process.ppid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Deletes a stale lock only if it still names the dead holder: moved aside atomically first, so a
 * process that took the lock over in the meantime keeps it (put back when the moved file is theirs).
 */
function removeIfStill(file: string, holder: number): void {
  const aside = `${file}.${process.pid}.stale`;
  try {
    renameSync(file, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  if (readPid(aside) !== holder) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone holds it again: the next round reads who.
    }
  }
  unlinkSync(aside);
}

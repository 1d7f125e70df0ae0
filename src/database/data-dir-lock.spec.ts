import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirInUseError, DataDirLock, LOCK_FILE } from './data-dir-lock.js';

describe('DataDirLock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const lockFile = () => join(dir, LOCK_FILE);

  it('writes the pid, refuses a second holder in this process, and removes the file on release', () => {
    const lock = DataDirLock.acquire(dir);
    expect(readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
    expect(() => DataDirLock.acquire(dir)).toThrow(`DATA_DIR ${dir} is in use by this process (pid ${process.pid})`);
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
    // Nothing else left beside it.
    expect(readdirSync(dir)).toEqual([]);
    DataDirLock.acquire(dir).release();
  });

  it('refuses a lock held by a live process, naming it', () => {
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      writeFileSync(lockFile(), `${holder.pid}\n`);
      expect(() => DataDirLock.acquire(dir)).toThrow(DataDirInUseError);
      expect(() => DataDirLock.acquire(dir)).toThrow(`DATA_DIR ${dir} is in use by process ${holder.pid}: stop it, or set DATA_DIR to another folder`);
      expect(readFileSync(lockFile(), 'utf8')).toBe(`${holder.pid}\n`);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock whose process is gone, or that holds no pid', () => {
    // A pid that just ended.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    for (const stale of [`${dead}\n`, 'garbage', '']) {
      writeFileSync(lockFile(), stale);
      const lock = DataDirLock.acquire(dir);
      expect(readFileSync(lockFile(), 'utf8')).toBe(`${process.pid}\n`);
      lock.release();
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('release leaves a lock that is no longer its own', () => {
    const lock = DataDirLock.acquire(dir);
    writeFileSync(lockFile(), '1\n');
    lock.release();
    expect(readFileSync(lockFile(), 'utf8')).toBe('1\n');
  });
});

import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One file of a deployment's code: its path in the deployment (`/_server/index.js`) and its content's SHA-256. */
export interface CodeFile {
  path: string;
  sha256: string;
}

/** Where the code comes from: the blob store's shape (content-addressed), so the deploy path can pass it as it is. */
export interface CodeSource {
  files: readonly CodeFile[];
  /** The bytes of a file by its SHA-256, or undefined when the store has none. */
  read(sha256: string): Promise<Buffer | Uint8Array | undefined>;
}

export class CodeFolderError extends Error {
  override name = 'CodeFolderError';
}

const KEY = /^[A-Za-z0-9_-]{1,64}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** Why a deployment's file path cannot be a file under the code folder, or null. */
export function codePathProblem(path: string): string | null {
  if (!path.startsWith('/') || path.length > 1024) return `${JSON.stringify(path.slice(0, 100))} is not an absolute path of at most 1024 characters`;
  const segments = path.slice(1).split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\\\0]/.test(s)))
    return `${JSON.stringify(path.slice(0, 100))} has an empty, . or .. segment, or a backslash`;
  return null;
}

/**
 * The deployments' code on this node, each in a folder of its own under `root`, written once and then read-only
 * (files 0444, folders 0555; the sandbox mounts it read-only too). A folder appears whole or not at all: it is
 * written under a temporary name and renamed, so a second start of the same deployment reuses it.
 */
export class CodeFolders {
  private readonly making = new Map<string, Promise<string>>();

  constructor(readonly root: string) {}

  /** The folder holding this deployment's code, materialised on first use. */
  folder(key: string, source: CodeSource): Promise<string> {
    if (!KEY.test(key)) return Promise.reject(new CodeFolderError(`not a deployment key: ${JSON.stringify(key.slice(0, 80))}`));
    let making = this.making.get(key);
    if (!making) {
      making = this.make(key, source).finally(() => this.making.delete(key));
      this.making.set(key, making);
    }
    return making;
  }

  /** A throwaway folder (a deploy's load check), removed with `remove`. */
  async scratch(source: CodeSource): Promise<string> {
    return this.make(`check-${randomBytes(8).toString('hex')}`, source);
  }

  async remove(folder: string): Promise<void> {
    await makeWritable(folder).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }

  private async make(key: string, source: CodeSource): Promise<string> {
    const target = join(this.root, 'code', key);
    if (await exists(target)) return target;
    const temporary = join(this.root, 'code', `.${key}.${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(temporary, { recursive: true, mode: 0o755 });
      for (const file of source.files) {
        const problem = codePathProblem(file.path);
        if (problem) throw new CodeFolderError(problem);
        if (!SHA256.test(file.sha256)) throw new CodeFolderError(`${file.path}: not a SHA-256: ${JSON.stringify(file.sha256.slice(0, 80))}`);
        const bytes = await source.read(file.sha256);
        if (!bytes) throw new CodeFolderError(`${file.path}: the file ${file.sha256} is not in storage`);
        if (createHash('sha256').update(bytes).digest('hex') !== file.sha256) throw new CodeFolderError(`${file.path}: its bytes do not match ${file.sha256}`);
        const path = join(temporary, file.path);
        await mkdir(dirname(path), { recursive: true, mode: 0o755 });
        await writeFile(path, bytes, { mode: 0o444, flag: 'wx' });
      }
      await makeReadOnly(temporary);
    } catch (err) {
      await this.remove(temporary);
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new CodeFolderError('a file is listed twice');
      throw err;
    }
    try {
      await rename(temporary, target);
    } catch (err) {
      // Another start made it meanwhile: theirs is the same code.
      await this.remove(temporary);
      if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return target;
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function makeReadOnly(folder: string): Promise<void> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeReadOnly(join(folder, entry.name));
  }
  await chmod(folder, 0o555);
}

async function makeWritable(folder: string): Promise<void> {
  await chmod(folder, 0o755);
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeWritable(join(folder, entry.name));
  }
}

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codePathProblem, CodeFolders, type CodeSource } from './code-folder.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const source = (files: Record<string, string>, stored = files): CodeSource => ({
  files: Object.entries(files).map(([path, text]) => ({ path, sha256: sha(text) })),
  read: async (sha256) => {
    const text = Object.values(stored).find((t) => sha(t) === sha256);
    return text === undefined ? undefined : Buffer.from(text);
  },
});

describe('CodeFolders', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'code-folder-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes the files once, read-only, and reuses the folder', async () => {
    const folders = new CodeFolders(root);
    const folder = await folders.folder('dep_1', source({ '/_server/index.js': 'a', '/_server/lib/b.js': 'b' }));
    expect(readFileSync(join(folder, '_server/lib/b.js'), 'utf8')).toBe('b');
    expect(statSync(join(folder, '_server/index.js')).mode & 0o777).toBe(0o444);
    expect(statSync(join(folder, '_server')).mode & 0o777).toBe(0o555);
    expect(await folders.folder('dep_1', source({}))).toBe(folder);
    await folders.remove(folder);
  });

  it('refuses paths that could leave the folder, unknown or mismatched bytes, and keys that are no ids', async () => {
    const folders = new CodeFolders(root);
    await expect(folders.folder('dep_2', source({ '/../x.js': 'a' }))).rejects.toThrow('.. segment');
    await expect(folders.folder('dep_3', source({ '/a.js': 'a' }, {}))).rejects.toThrow('is not in storage');
    await expect(folders.folder('dep_4', { files: [{ path: '/a.js', sha256: sha('a') }], read: async () => Buffer.from('b') })).rejects.toThrow('do not match');
    await expect(folders.folder('../dep', source({}))).rejects.toThrow('not a deployment key');
  });

  it('codePathProblem', () => {
    expect(codePathProblem('/_server/index.js')).toBeNull();
    for (const bad of ['relative.js', '/a//b.js', '/a/./b.js', '/a\\b.js', '/a/']) expect(codePathProblem(bad)).not.toBeNull();
  });
});

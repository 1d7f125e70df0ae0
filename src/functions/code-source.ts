import type { CodeSource } from './code-folder.js';
import { codeFolderOf } from './function-routes.js';

/** A deployment's code: the files under its entry's folder, their bytes read by hash (the blob store, as the account's). */
export function codeSourceOf(files: Readonly<Record<string, string>>, entry: string, read: CodeSource['read']): CodeSource {
  const folder = codeFolderOf(entry);
  return {
    files: Object.entries(files)
      .filter(([path]) => path.startsWith(folder))
      .map(([path, sha256]) => ({ path, sha256 })),
    read,
  };
}

import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App, DeployResult, PlatformClient, SiteConfig } from './client.js';
import { ValidationError } from './errors.js';

export interface DeployDirectoryOptions {
  appId: string;
  /** Default `production`. */
  env?: string;
  /** Serve `/index.html` for unknown paths without an extension (client-side routing): `config.spa`. */
  spa?: boolean;
  /** Publish the new deployment at the app's public address once deployed. */
  publish?: boolean;
  /** How the files are served (`spa` above wins over `config.spa`; `functions` below over `config.functions`). */
  config?: SiteConfig;
  /** Server code: this folder is deployed under `/_server/` and runs as the deployment's instance (`config.functions`). */
  functions?: FunctionsFolder;
  /** Files hashed (and uploaded) at once, default 8. */
  concurrency?: number;
  onProgress?: (progress: DeployProgress) => void;
}

export interface FunctionsFolder {
  dir: string;
  /** The entry, a path inside `dir` (`main.ts`); default its `index.js`, else its `index.ts`. */
  entry?: string;
  /** The paths the instance answers, default `["/api/*"]`. */
  routes?: string[];
}

/** Where server code is deployed: never served as files. */
export const SERVER_FOLDER = '/_server';

export type DeployProgress =
  /** After each file hashed; `total` files were found. */
  | { phase: 'hashing'; files: number; bytes: number; total: number }
  /** After each file uploaded, of `total` the server lacked (`totalBytes`). */
  | { phase: 'uploading'; files: number; bytes: number; total: number; totalBytes: number }
  | { phase: 'deployed'; deploymentId: string; url: string }
  | { phase: 'published'; publicUrl: string };

export interface DeployDirectoryResult {
  deployment: DeployResult;
  /** Every file of the folder, and their bytes. */
  files: number;
  bytes: number;
  /** What had to be uploaded (files the account did not have). */
  uploaded: { files: number; bytes: number };
  /** The app, when published. */
  app?: App;
}

interface LocalFile {
  /** The path it is served at: `/assets/app.js`. */
  path: string;
  file: string;
  size: number;
  sha256: string;
}

/** Folders and files never deployed: version control and desktop litter. */
const SKIPPED = new Set(['.git', '.hg', '.svn', '.DS_Store', 'Thumbs.db']);
/** A deploy answered files_missing more than this many times in a row (files swept between the two): give up. */
const DEPLOY_ATTEMPTS = 3;

export function sha256Hex(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Deploys every file under `dir`. Each file is uploaded at most once: the first deploy sends only the
 * manifest (path → hash), the server answers `files_missing` with the hashes this account lacks, those
 * are uploaded, and the deploy is sent again. A redeploy where nothing changed uploads nothing.
 */
export async function deployDirectory(client: PlatformClient, dir: string, options: DeployDirectoryOptions): Promise<DeployDirectoryResult> {
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const report = options.onProgress ?? (() => undefined);
  const found = await listFiles(dir);
  if (found.length === 0) throw new Error(`${dir} holds no files to deploy`);
  const functions = options.functions ? await withServerCode(found, options.functions) : undefined;

  let hashedBytes = 0;
  let hashedFiles = 0;
  const files = await mapConcurrently(found, concurrency, async ({ path, file }) => {
    const { sha256, size } = await hashFile(file);
    hashedBytes += size;
    report({ phase: 'hashing', files: ++hashedFiles, bytes: hashedBytes, total: found.length });
    return { path, file, size, sha256 };
  });
  const manifest = Object.fromEntries(files.map((f) => [f.path, f.sha256]));
  const config = { ...options.config, ...(options.spa !== undefined ? { spa: options.spa } : {}), ...(functions ? { functions } : {}) };
  const body = { appId: options.appId, env: options.env ?? 'production', files: manifest, ...(Object.keys(config).length ? { config } : {}) };

  const uploaded = { files: 0, bytes: 0 };
  let deployment: DeployResult | undefined;
  for (let attempt = 1; !deployment; attempt++) {
    try {
      deployment = await client.deployments.deploy(body);
    } catch (err) {
      const missing = missingOf(err);
      if (!missing || attempt >= DEPLOY_ATTEMPTS) throw err;
      const done = await upload(client, files, missing, concurrency, report);
      uploaded.files += done.files;
      uploaded.bytes += done.bytes;
    }
  }
  report({ phase: 'deployed', deploymentId: deployment.deploymentId, url: deployment.url });
  const result: DeployDirectoryResult = { deployment, files: files.length, bytes: hashedBytes, uploaded };
  if (options.publish) {
    result.app = await client.apps.publish(options.appId, { deploymentId: deployment.deploymentId });
    if (result.app.publicUrl) report({ phase: 'published', publicUrl: result.app.publicUrl });
  }
  return result;
}

/** The hashes a `files_missing` answer lists, or undefined for any other error. */
function missingOf(err: unknown): string[] | undefined {
  if (!(err instanceof ValidationError) || err.reason !== 'files_missing') return undefined;
  const missing = (err.body as { missing?: unknown } | undefined)?.missing;
  return Array.isArray(missing) ? missing.filter((h): h is string => typeof h === 'string') : undefined;
}

/** Uploads the files of these hashes (one path of each), `concurrency` at a time; the client retries each on 429, 5xx and network errors. */
async function upload(
  client: PlatformClient,
  files: LocalFile[],
  hashes: string[],
  concurrency: number,
  report: (progress: DeployProgress) => void,
): Promise<{ files: number; bytes: number }> {
  const byHash = new Map(files.map((f) => [f.sha256, f]));
  const todo = [...new Set(hashes)].map((h) => byHash.get(h)).filter((f): f is LocalFile => f !== undefined);
  const totalBytes = todo.reduce((n, f) => n + f.size, 0);
  const done = { files: 0, bytes: 0 };
  await mapConcurrently(todo, concurrency, async (f) => {
    await client.uploadFile(await readFile(f.file), f.sha256);
    done.files++;
    done.bytes += f.size;
    report({ phase: 'uploading', files: done.files, bytes: done.bytes, total: todo.length, totalBytes });
  });
  return done;
}

/**
 * Adds the server code's files to `found` under /_server/ and answers `config.functions`. Refused here, before any
 * upload: a site folder that has a /_server/ of its own, a server folder without files, an entry that is not one of them.
 */
async function withServerCode(found: Array<{ path: string; file: string }>, functions: FunctionsFolder): Promise<{ entry: string; routes: string[] }> {
  if (found.some((f) => f.path.startsWith(`${SERVER_FOLDER}/`))) {
    throw new Error(`the site folder holds a ${SERVER_FOLDER}/ folder of its own: that path is for the server code (--functions)`);
  }
  const code = (await listFiles(functions.dir)).map((f) => ({ path: `${SERVER_FOLDER}${f.path}`, file: f.file }));
  if (code.length === 0) throw new Error(`${functions.dir} holds no files to deploy as server code`);
  const paths = new Set(code.map((f) => f.path));
  let entry: string;
  if (functions.entry !== undefined) {
    entry = `${SERVER_FOLDER}/${functions.entry.replace(/\\/g, '/').replace(/^(\.\/)+|^\/+/, '')}`;
    if (!paths.has(entry)) throw new Error(`the entry ${functions.entry} is not a file of ${functions.dir}`);
  } else {
    const found = [`${SERVER_FOLDER}/index.js`, `${SERVER_FOLDER}/index.ts`].find((p) => paths.has(p));
    if (!found) throw new Error(`${functions.dir} has no index.js or index.ts: name its entry file (--entry)`);
    entry = found;
  }
  found.push(...code);
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entry, routes: functions.routes ?? ['/api/*'] };
}

/** Every regular file under `dir`, served at its path relative to it (`/` separators), sorted. Symbolic links are not followed. */
async function listFiles(dir: string): Promise<Array<{ path: string; file: string }>> {
  const found: Array<{ path: string; file: string }> = [];
  const walk = async (folder: string, prefix: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (SKIPPED.has(entry.name)) continue;
      const file = join(folder, entry.name);
      if (entry.isDirectory()) await walk(file, `${prefix}/${entry.name}`);
      else if (entry.isFile()) found.push({ path: `${prefix}/${entry.name}`, file });
    }
  };
  await walk(dir, '');
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** SHA-256 and size of a file, read as a stream (a large file is never held whole). */
function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    let size = 0;
    createReadStream(file)
      .on('data', (chunk) => {
        size += chunk.length;
        hash.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolve({ sha256: hash.digest('hex'), size }));
  });
}

/** `work` on every item, at most `limit` at once, results in the items' order. */
async function mapConcurrently<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

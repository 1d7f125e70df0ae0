import { RequestError } from '../common/errors/request-errors.js';

export const MAX_FILES = 20_000;
export const MAX_BUNDLE_BYTES = 500 * 1024 * 1024;
export const MAX_PATH_BYTES = 1024;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A deploy's `files`, checked: path → SHA-256, and the distinct hashes (in manifest order). */
export interface Manifest {
  files: Record<string, string>;
  hashes: string[];
}

/**
 * Checks a deploy's `files` map in one pass over its entries, by hand (it holds up to 20,000 of
 * them: see ValidatedByHand): a 400 naming every bad path, or the manifest.
 */
export function parseManifest(value: unknown): Manifest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw RequestError.invalid(['files must be an object mapping each path to the SHA-256 of its content']);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) throw RequestError.invalid(['files must name at least one file (leave it out to deploy the landing page alone)']);
  if (entries.length > MAX_FILES)
    throw RequestError.invalid([`files names ${entries.length.toLocaleString('en-US')} files; at most ${MAX_FILES.toLocaleString('en-US')}`]);
  const problems: string[] = [];
  const hashes = new Set<string>();
  for (const [path, hash] of entries) {
    const pathProblem = problemOfPath(path);
    if (pathProblem) problems.push(`files[${quote(path)}]: ${pathProblem}`);
    if (typeof hash !== 'string' || !SHA256_HEX.test(hash)) problems.push(`files[${quote(path)}] must be a SHA-256 (64 lowercase hex characters)`);
    else hashes.add(hash);
  }
  if (problems.length > 0) throw RequestError.invalid(problems);
  return { files: value as Record<string, string>, hashes: [...hashes] };
}

/** Why a path cannot be a file of a bundle, or undefined. */
export function problemOfPath(path: string): string | undefined {
  if (!path.startsWith('/')) return 'a path must start with /';
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) return `a path must be at most ${MAX_PATH_BYTES} bytes of UTF-8`;
  if (hasControlOrBackslash(path)) return 'a path must not hold a backslash, NUL or control character';
  const segments = path.slice(1).split('/');
  if (segments.some((s) => s === '')) return 'a path must not have an empty segment (// or a trailing /)';
  if (segments.some((s) => s === '.' || s === '..')) return 'a path must not have a . or .. segment';
  if (isReserved(segments)) return 'the platform serves this path (/signup, /thanks and /_platform/… are reserved)';
  return undefined;
}

/**
 * The platform's paths on every site origin: the sign-up form's `/signup` and `/thanks` (and the
 * names that would serve them: `.html` with clean URLs, an index under them), and `/_platform/…`.
 */
function isReserved(segments: string[]): boolean {
  const first = segments[0];
  if (first === '_platform') return true;
  if (first === 'signup' || first === 'thanks') return true;
  return segments.length === 1 && (first === 'signup.html' || first === 'thanks.html');
}

/** Whether a text holds a C0 or C1 control character, DEL or a backslash. */
export function hasControlOrBackslash(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0x5c) return true;
  }
  return false;
}

/** A path as a message names it: JSON-quoted (control characters escaped), cut to 100 characters. */
function quote(path: string): string {
  return JSON.stringify(path.length > 100 ? `${path.slice(0, 100)}…` : path);
}

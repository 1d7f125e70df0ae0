import { blobKey } from '../files/blob-store.js';
import { type CachedFile, type FileBytes, fileSlot, type FileSlot } from './file-cache.js';
import type { SizedStream } from './file-disk-tier.js';
import type { FileKind } from './content-types.js';
import { hasContentHash } from './site-paths.js';

/** One file of a deployment as it is answered: made once per path, kept with the deployment. */
export interface ServedFile {
  /** The manifest path (what was asked may differ: `/` → `/index.html`). */
  path: string;
  sha256: string;
  kind: FileKind;
  /** Where its bytes are cached: under the deployment's own account's blob. */
  cache: FileSlot;
  cacheControl: string;
  etags: { identity: string; gzip: string; br: string };
  /** The headers of its whole-file answers as a site sends them, made once (see SiteServer's `fileHeaders`): by encoding, Vary and origin. */
  answerHeaders: Map<string, Readonly<Record<string, string>>>;
}

export function servedFileOf(path: string, sha256: string, kind: FileKind, accountId: string): ServedFile {
  return {
    path,
    sha256,
    kind,
    cache: fileSlot(blobKey(accountId, sha256), kind.compressible),
    cacheControl: kind.html ? 'public, max-age=0, must-revalidate' : hasContentHash(path) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
    etags: { identity: `"${sha256}"`, gzip: `"${sha256}-gz"`, br: `"${sha256}-br"` },
    answerHeaders: new Map(),
  };
}

export interface FileAnswer<B extends Buffer | SizedStream = Buffer | SizedStream> {
  status: 200 | 206 | 304 | 416;
  headers: Record<string, string>;
  /** A copy on disk is streamed (with its Content-Length); one in memory is sent as it is. */
  body: B | null;
}

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * The answer for a file: the encoding the client takes (brotli, then gzip, of those that exist),
 * `304` when If-None-Match names any encoding of these bytes, a single `Range` (on the identity
 * encoding; `If-Range` honoured; several ranges get the whole file) as 206 or 416.
 */
export function fileAnswer(file: ServedFile, bytes: CachedFile<Buffer>, headers: Record<string, string | string[] | undefined>): FileAnswer<Buffer>;
export function fileAnswer(file: ServedFile, bytes: CachedFile, headers: Record<string, string | string[] | undefined>): FileAnswer;
export function fileAnswer(file: ServedFile, bytes: CachedFile, headers: Record<string, string | string[] | undefined>): FileAnswer {
  const range = headers.range;
  const ranged = typeof range === 'string' && (headers['if-range'] === undefined || headers['if-range'] === file.etags.identity);
  const encoding: Encoding = ranged ? 'identity' : chooseEncoding(bytes, headers['accept-encoding']);
  const body = encoding === 'identity' ? bytes.identity : encoding === 'br' ? bytes.br! : bytes.gzip!;
  const etag = file.etags[encoding];
  const answer: Record<string, string> = {
    'content-type': file.kind.contentType,
    'cache-control': file.cacheControl,
    etag,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  };
  if (bytes.gzip || bytes.br || bytes.pending) answer.vary = 'Accept-Encoding';
  if (encoding !== 'identity') answer['content-encoding'] = encoding;

  const ifNoneMatch = headers['if-none-match'];
  if (typeof ifNoneMatch === 'string') {
    const matched = matchingTag(ifNoneMatch, file);
    if (matched) {
      const notModified: Record<string, string> = { 'cache-control': file.cacheControl, etag: matched, 'x-content-type-options': 'nosniff' };
      if (answer.vary) notModified.vary = answer.vary;
      return { status: 304, headers: notModified, body: null };
    }
  }
  if (ranged) {
    const wanted = parseRange(range, body.length);
    if (wanted === 'unsatisfiable') return { status: 416, headers: { ...answer, 'content-range': `bytes */${body.length}` }, body: null };
    if (wanted) {
      const [start, end] = wanted;
      const partial = { ...answer, 'content-range': `bytes ${start}-${end}/${body.length}` };
      return { status: 206, headers: partial, body: bodyOf(body, partial, start, end) };
    }
  }
  return { status: 200, headers: answer, body: bodyOf(body, answer, 0, body.length - 1) };
}

/** Bytes `start`–`end` of a copy: a view of one in memory, a stream of one on disk (whose length Fastify cannot know: the header says it). */
function bodyOf(copy: FileBytes, headers: Record<string, string>, start: number, end: number): Buffer | SizedStream {
  if (Buffer.isBuffer(copy)) return start === 0 && end === copy.length - 1 ? copy : copy.subarray(start, end + 1);
  headers['content-length'] = String(end - start + 1);
  return copy.entry.read(copy, start, end);
}

function chooseEncoding(bytes: CachedFile, acceptEncoding: string | string[] | undefined): Encoding {
  if (typeof acceptEncoding !== 'string' || (!bytes.br && !bytes.gzip)) return 'identity';
  const accepted = acceptedEncodings(acceptEncoding);
  if (bytes.br && accepted.has('br')) return 'br';
  if (bytes.gzip && accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** Accept-Encoding values seen lately and what they take: browsers send a handful of distinct ones, each on every request. */
const acceptedByHeader = new Map<string, ReadonlySet<string>>();
const MAX_ACCEPT_HEADERS = 64;

/** The codings an Accept-Encoding takes, parsed once per distinct value (a bounded memo: cleared when full). */
function acceptedEncodings(header: string): ReadonlySet<string> {
  let accepted = acceptedByHeader.get(header);
  if (accepted === undefined) {
    if (acceptedByHeader.size >= MAX_ACCEPT_HEADERS) acceptedByHeader.clear();
    accepted = parseAcceptEncoding(header);
    acceptedByHeader.set(header, accepted);
  }
  return accepted;
}

/** The codings an Accept-Encoding takes (`q=0` refuses one; `*` takes any not named). */
function parseAcceptEncoding(header: string): Set<string> {
  const taken = new Set<string>();
  const refused = new Set<string>();
  let any = false;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const zero = q !== undefined && Number(q.slice(2)) === 0;
    if (name === '*') any = !zero;
    else (zero ? refused : taken).add(name);
  }
  if (any) for (const name of ['br', 'gzip']) if (!refused.has(name)) taken.add(name);
  return taken;
}

/** The tag of these bytes that If-None-Match names (weak comparison, `*`), else undefined. */
function matchingTag(header: string, file: ServedFile): string | undefined {
  if (header.trim() === '*') return file.etags.identity;
  for (const candidate of header.split(',')) {
    const tag = candidate.trim().replace(/^W\//, '');
    if (tag === file.etags.identity || tag === file.etags.gzip || tag === file.etags.br) return tag;
  }
  return undefined;
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` → inclusive [start, end]; undefined for what is not one satisfiable range we serve (several, malformed: the whole file). */
export function parseRange(header: string, size: number): [number, number] | 'unsatisfiable' | undefined {
  const found = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!found || (found[1] === '' && found[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (found[1] === '') {
    const suffix = Number(found[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(found[1]);
    end = found[2] === '' ? size - 1 : Math.min(Number(found[2]), size - 1);
    if (found[2] !== '' && Number(found[2]) < start) return undefined;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return [start, end];
}

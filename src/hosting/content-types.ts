import mime from 'mime-types';

/** What a site file is served as: its Content-Type, and whether it is worth compressing. */
export interface FileKind {
  contentType: string;
  /** gzip and brotli are offered (text, JSON, JavaScript, SVG, WebAssembly…), not for formats compressed already. */
  compressible: boolean;
  /** An HTML document: revalidated on every use, and a pageview when served. */
  html: boolean;
}

const OCTET_STREAM: FileKind = { contentType: 'application/octet-stream', compressible: false, html: false };

/** Types that shrink under gzip/brotli beyond text/*: images, fonts and archives are compressed already (bar these). */
const COMPRESSIBLE = new Set([
  'application/javascript',
  'application/json',
  'application/manifest+json',
  'application/wasm',
  'application/xml',
  'application/xhtml+xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/ld+json',
  'application/geo+json',
  'application/vnd.ms-fontobject',
  'image/svg+xml',
  'image/vnd.microsoft.icon',
  'image/bmp',
  'font/ttf',
  'font/otf',
]);

const kinds = new Map<string, FileKind>();

/**
 * The kind of a file by its name's extension (mime-types' table): text types carry `charset=utf-8`,
 * `.js`/`.mjs` are `text/javascript`, `.webmanifest` `application/manifest+json`, `.wasm`
 * `application/wasm`; an unknown or missing extension is `application/octet-stream` (with nosniff,
 * a browser never reads it as HTML or script).
 */
export function fileKindOf(path: string): FileKind {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return OCTET_STREAM; // no extension, or a dotfile's whole name
  const extension = name.slice(dot + 1).toLowerCase();
  let kind = kinds.get(extension);
  if (kind) return kind;
  const type = mime.lookup(extension);
  if (!type) return OCTET_STREAM;
  const contentType = mime.contentType(type) || type;
  kind = {
    contentType,
    compressible: extension !== 'svgz' && (type.startsWith('text/') || COMPRESSIBLE.has(type) || type.endsWith('+json') || type.endsWith('+xml')),
    html: type === 'text/html',
  };
  // Bounded by mime-types' table: only known extensions are remembered.
  kinds.set(extension, kind);
  return kind;
}

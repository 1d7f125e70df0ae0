import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { join, relative, sep } from 'node:path';

export interface SiteAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came (never decompressed). */
  body: Buffer;
  text: string;
}

/**
 * One request to the server at `baseUrl` with this Host header, answered as raw bytes: no client
 * library in between that would decompress, follow redirects or refuse to send a Host of its own.
 */
export function siteRequest(
  baseUrl: string,
  host: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<SiteAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method: options.method ?? 'GET', headers: { host, ...options.headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Every file under a folder, as a deploy's manifest paths (`/assets/app.js`) to their bytes. */
export function readBundle(dir: string): Record<string, Buffer> {
  const files: Record<string, Buffer> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files[`/${relative(dir, full).split(sep).join('/')}`] = readFileSync(full);
  }
  return files;
}

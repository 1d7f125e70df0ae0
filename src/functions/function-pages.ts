import { Readable } from 'node:stream';
import type { FunctionResponse } from './functions.types.js';

const TITLES: Record<number, string> = {
  413: 'Request too large',
  502: 'The app’s server code failed',
  503: 'The app’s server code is unavailable',
  504: 'The app’s server code did not answer in time',
};

/** The platform's page for a function request it answers itself. */
export function functionPage(status: number, extraHeaders: Record<string, string> = {}): FunctionResponse {
  const title = TITLES[status] ?? 'Error';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${status} ${title}</title></head><body><h1>${title}</h1><p>Status ${status}.</p></body></html>\n`;
  const body = Buffer.from(html);
  const headers = { 'content-type': 'text/html; charset=utf-8', 'content-length': String(body.length), 'cache-control': 'no-store', ...extraHeaders };
  return { status, headers: Object.entries(headers).flat(), body: Readable.from([body]) };
}

import { fileKindOf } from './content-types.js';

describe('fileKindOf', () => {
  it.each([
    ['/index.html', 'text/html; charset=utf-8', true, true],
    ['/assets/app.3f9a1c2b.js', 'text/javascript; charset=utf-8', true, false],
    ['/m.mjs', 'text/javascript; charset=utf-8', true, false],
    ['/style.CSS', 'text/css; charset=utf-8', true, false],
    ['/logo.svg', 'image/svg+xml', true, false],
    ['/app.wasm', 'application/wasm', true, false],
    ['/site.webmanifest', 'application/manifest+json; charset=utf-8', true, false],
    ['/data.json', 'application/json; charset=utf-8', true, false],
    ['/photo.png', 'image/png', false, false],
    ['/font.woff2', 'font/woff2', false, false],
    ['/archive.zip', 'application/zip', false, false],
    ['/notes.unknownext', 'application/octet-stream', false, false],
    ['/LICENSE', 'application/octet-stream', false, false],
    ['/.htaccess', 'application/octet-stream', false, false],
  ])('%s is %s (compressible %s, html %s)', (path, contentType, compressible, html) => {
    expect(fileKindOf(path)).toEqual({ contentType, compressible, html });
  });
});

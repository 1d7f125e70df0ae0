import { hasContentHash, PathPattern, readSitePath, redirectLocation } from './site-paths.js';

describe('readSitePath', () => {
  it.each([
    ['/', '/', ''],
    ['/assets/app.js?v=1', '/assets/app.js', '?v=1'],
    ['/caf%C3%A9/menu.html', '/café/menu.html', ''],
    ['/a%20b', '/a b', ''],
  ])('%s → %s', (url, path, search) => {
    expect(readSitePath(url)).toMatchObject({ path, search });
  });

  it.each([
    ['/../etc/passwd', 'not_found'],
    ['/a/..', 'not_found'],
    ['/%2e%2e/secret', 'not_found'],
    ['/a/%2E/b', 'not_found'],
    ['/a%2fb', 'not_found'],
    ['/a%2Fb', 'not_found'],
    ['/a%5cb', 'bad_request'],
    ['/a\\b', 'bad_request'],
    ['/a%00b', 'bad_request'],
    ['/a%0d%0aSet-Cookie:x', 'bad_request'],
    ['/%E0%A4%A', 'bad_request'],
    ['/%zz', 'bad_request'],
    ['http://evil.example/', 'bad_request'],
    ['*', 'bad_request'],
  ])('%s is refused (%s)', (url, problem) => {
    expect(readSitePath(url)).toBe(problem);
  });

  it('keeps dots that are not whole segments', () => {
    expect(readSitePath('/.well-known/security.txt')).toMatchObject({ path: '/.well-known/security.txt' });
    expect(readSitePath('/a..b/c')).toMatchObject({ path: '/a..b/c' });
  });
});

describe('hasContentHash', () => {
  it.each(['/assets/app.3f9a1c2b.js', '/chunk.Bx7k2Qa9.css', '/a/b/main.0123456789abcdef0123.js', '/font.d41d8cd9.woff2'])('%s carries a hash', (path) => {
    expect(hasContentHash(path)).toBe(true);
  });
  it.each(['/app.js', '/app.component.js', '/jquery.min.js', '/3f9a1c2b.js', '/app.3f9a1c2.js', '/index.html'])('%s does not', (path) => {
    expect(hasContentHash(path)).toBe(false);
  });
});

describe('PathPattern and redirectLocation', () => {
  it('matches :name segments and a final * on the decoded path', () => {
    expect(new PathPattern('/old/:slug').match('/old/hello')).toEqual({ slug: 'hello' });
    expect(new PathPattern('/old/:slug').match('/old/hello/more')).toBeUndefined();
    expect(new PathPattern('/assets/*').match('/assets/a/b.js')).toEqual({ '*': 'a/b.js' });
    expect(new PathPattern('/assets/*').match('/assets/')).toEqual({ '*': '' });
    expect(new PathPattern('/assets/*').match('/assets')).toBeUndefined();
    expect(new PathPattern('/café/*').match('/café/menu')).toEqual({ '*': 'menu' });
    expect(new PathPattern('/exact').match('/exact')).toEqual({});
    expect(new PathPattern('/a.b').match('/aXb')).toBeUndefined();
  });

  it('fills the destination encoded, keeps the query, and never leaves the site by a protocol-relative path', () => {
    expect(redirectLocation('/new/:slug', { slug: 'x y?#' }, '?a=1')).toBe('/new/x%20y%3F%23?a=1');
    expect(redirectLocation('/docs/*', { '*': 'a/b c' }, '')).toBe('/docs/a/b%20c');
    expect(redirectLocation('/*', { '*': '/evil.example/x' }, '')).toBe('/evil.example/x');
    expect(redirectLocation('https://example.com/:id', { id: '7' }, '?q')).toBe('https://example.com/7?q');
    expect(redirectLocation('https://example.com:8080/x', {}, '')).toBe('https://example.com:8080/x');
  });
});

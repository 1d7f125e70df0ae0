import { codeFolderOf, FunctionRoutes, parseFunctionsConfig, RoutePattern } from './function-routes.js';

describe('function routes', () => {
  it('matches a final * as the rest of the path, the bare prefix included, and a literal route exactly', () => {
    const api = new RoutePattern('/api/*');
    expect(['/api', '/api/', '/api/notes', '/api/a/b'].map((p) => api.match(p))).toEqual([true, true, true, true]);
    expect(['/apis', '/ap', '/', '/x/api/'].map((p) => api.match(p))).toEqual([false, false, false, false]);
    const hook = new RoutePattern('/hooks/stripe');
    expect([hook.match('/hooks/stripe'), hook.match('/hooks/stripe/'), hook.match('/hooks')]).toEqual([true, false, false]);
  });

  it('refuses a route covering a platform path, naming it', () => {
    for (const [route, covered] of [
      ['/*', '/signup'],
      ['/signup', '/signup'],
      ['/signup/*', '/signup'],
      ['/thanks', '/thanks'],
      ['/_platform/*', '/_platform/*'],
      ['/_platform/analytics.js', '/_platform/*'],
    ]) {
      const problems: string[] = [];
      expect(parseFunctionsConfig({ entry: '/_server/index.js', routes: [route] }, problems)).toBeUndefined();
      expect(problems).toEqual([`config.functions.routes[0] covers ${covered}, which the platform answers`]);
    }
    const problems: string[] = [];
    expect(parseFunctionsConfig({ entry: '/_server/index.js', routes: ['/_platformish/*', '/signups', '/api/*'] }, problems)).toEqual({
      entry: '/_server/index.js',
      routes: ['/_platformish/*', '/signups', '/api/*'],
    });
    expect(problems).toEqual([]);
  });

  it('defaults the routes to /api/* and keeps the code folder out of the files', () => {
    const config = parseFunctionsConfig({ entry: '/_server/index.ts' }, [])!;
    expect(config.routes).toEqual(['/api/*']);
    const routes = new FunctionRoutes(config);
    expect([routes.isCode('/_server/index.ts'), routes.isCode('/_server/lib/a.js'), routes.isCode('/_serverless.js'), routes.isCode('/index.html')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(codeFolderOf('/a/b/c.js')).toBe('/a/b/');
  });

  it('refuses entries at the root, with . or .. segments, and routes with a * inside', () => {
    for (const [value, problem] of [
      [{ entry: '/index.js' }, 'config.functions.entry must be inside a folder'],
      [{ entry: '/_server/../index.js' }, 'config.functions.entry must be the path'],
      [{ entry: '/_server/index.js', routes: ['/a/*/b'] }, 'config.functions.routes[0] may hold * only'],
      [{ entry: '/_server/index.js', routes: ['/a//*'] }, 'config.functions.routes[0] has an empty'],
    ] as const) {
      const problems: string[] = [];
      parseFunctionsConfig(value, problems);
      expect(problems.join('\n')).toContain(problem);
    }
  });
});

/**
 * A deployment's `config.functions` (`{ entry, routes }`): which paths go to its instance, and which files are its
 * code (the entry's folder, never served). Checked at deploy; the hosting path matches requests against it.
 */
export interface FunctionsConfig {
  /** One of the deployment's files, inside a folder (`/_server/index.js`). */
  entry: string;
  /** 1–20 paths, each literal or ending in a `*` segment (`/api/*`). */
  routes: string[];
}

export const DEFAULT_ROUTES = ['/api/*'];
export const MAX_ROUTES = 20;
const MAX_PATH = 1024;
/** The platform's paths on every site origin: answered before any route, so no route may claim them. */
const PLATFORM_PATHS = ['/signup', '/thanks', '/_platform/'];
const SEGMENT = /^[^\p{Cc}\\*]*$/u;

/** `config.functions` checked by hand: problems go to `problems` (each naming the field), the config when none. */
export function parseFunctionsConfig(value: unknown, problems: string[]): FunctionsConfig | undefined {
  const where = 'config.functions';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${where} must be an object ({ entry, routes })`);
    return undefined;
  }
  const before = problems.length;
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (key !== 'entry' && key !== 'routes') problems.push(`property ${where}.${key.slice(0, 100)} should not exist`);
  const entry = fields.entry;
  if (typeof entry !== 'string' || !entry.startsWith('/') || entry.length > MAX_PATH || !SEGMENT.test(entry) || /\/\.{0,2}(\/|$)/.test(entry)) {
    problems.push(`${where}.entry must be the path of one of the deployment's files (/_server/index.js)`);
  } else if (codeFolderOf(entry) === '/') {
    problems.push(`${where}.entry must be inside a folder (/_server/index.js): every file of that folder is the function's code and is never served`);
  }
  const routes = fields.routes === undefined ? DEFAULT_ROUTES : fields.routes;
  if (!Array.isArray(routes) || routes.length < 1 || routes.length > MAX_ROUTES) {
    problems.push(`${where}.routes must be an array of 1 to ${MAX_ROUTES} paths (/api/*)`);
  } else {
    routes.forEach((route: unknown, i) => {
      const at = `${where}.routes[${i}]`;
      const problem = routeProblem(route);
      if (problem) problems.push(`${at} ${problem}`);
    });
  }
  return problems.length === before ? { entry: entry as string, routes: [...(routes as string[])] } : undefined;
}

function routeProblem(route: unknown): string | null {
  if (typeof route !== 'string' || !route.startsWith('/') || route.length > MAX_PATH) return `must be a path starting with / (at most ${MAX_PATH} characters)`;
  const literal = route.endsWith('/*') ? route.slice(0, -1) : route;
  if (!SEGMENT.test(literal)) return 'may hold * only as its last segment (/api/*), and no backslash or control character';
  if (/\/\.{1,2}(\/|$)|\/\//.test(literal)) return 'has an empty, . or .. segment';
  const pattern = new RoutePattern(route);
  const covered = PLATFORM_PATHS.find((path) => pattern.covers(path));
  if (covered) return `covers ${covered === '/_platform/' ? '/_platform/*' : covered}, which the platform answers`;
  return null;
}

/** The folder of the function's code: the entry's (`/_server/`). */
export function codeFolderOf(entry: string): string {
  return entry.slice(0, entry.lastIndexOf('/') + 1);
}

/** `/api/*` matches `/api`, `/api/` and everything under it; a route without `*` matches its path alone. */
export class RoutePattern {
  private readonly prefix: string | undefined;

  constructor(readonly source: string) {
    this.prefix = source.endsWith('/*') ? source.slice(0, -1) : undefined;
  }

  match(path: string): boolean {
    if (this.prefix === undefined) return path === this.source;
    return path.startsWith(this.prefix) || path === this.prefix.slice(0, -1);
  }

  /** Whether it matches `path` (a path ending in `/`: anything under it). */
  covers(path: string): boolean {
    if (!path.endsWith('/')) return this.match(path);
    if (this.prefix === undefined) return this.source.startsWith(path);
    return this.prefix.startsWith(path) || path.startsWith(this.prefix);
  }
}

/** A deployment's routes, ready to match request paths. */
export class FunctionRoutes {
  private readonly patterns: RoutePattern[];
  readonly codeFolder: string;

  constructor(readonly config: FunctionsConfig) {
    this.patterns = config.routes.map((route) => new RoutePattern(route));
    this.codeFolder = codeFolderOf(config.entry);
  }

  matches(path: string): boolean {
    return this.patterns.some((pattern) => pattern.match(path));
  }

  /** A file path of the function's code (never served). */
  isCode(path: string): boolean {
    return path.startsWith(this.codeFolder);
  }
}

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { CONFIG_KEYS } from './app-config.js';

// No Docker engine runs on CI machines: these checks keep docker/ and the config in step instead.
const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  env_file?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  healthcheck?: { test: unknown };
  ports?: string[];
  volumes?: string[];
}

describe('docker/compose.yaml', () => {
  const compose = load(read('docker/compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const appServices = Object.entries(compose.services).filter(([, s]) => s.build);

  it('runs a proxy, postgres, redis, two API replicas and a worker, the last two built from docker/Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'postgres', 'proxy', 'redis', 'worker']);
    expect(appServices.map(([name]) => name).sort()).toEqual(['api', 'worker']);
    expect(compose.services.api.environment?.APP_ROLE).toBe('api');
    expect(compose.services.api.deploy?.replicas).toBe(2);
    expect(compose.services.worker.environment?.APP_ROLE).toBe('worker');
  });

  it('puts the TLS proxy in front of every API replica, at PUBLIC_URL, and only the proxy is published', () => {
    expect(compose.services.proxy.image).toMatch(/^caddy:/);
    expect(compose.services.proxy.ports).toEqual(expect.arrayContaining(['443:443']));
    for (const [name, service] of appServices) expect({ name, ports: service.ports }).toEqual({ name, ports: undefined });
    // The proxy's site and the address the app gives out are one setting, with one default.
    expect(compose.services.proxy.environment?.PUBLIC_URL).toBe('${PUBLIC_URL:-https://localhost}');
    for (const [, service] of appServices) {
      expect(service.environment?.PUBLIC_URL).toBe('${PUBLIC_URL:-https://localhost}');
      expect(service.environment?.TRUST_PROXY).toBe('1'); // the proxy, one hop
    }
    const caddyfile = read('docker/Caddyfile');
    expect(caddyfile).toMatch(/^\{\$PUBLIC_URL:https:\/\/localhost\} \{/m);
    expect(caddyfile).toMatch(/dynamic a \{\$PLATFORM_HOST:api\} \{\$PLATFORM_PORT:3000\}/); // every replica behind the service name
    // Custom domains: certificates on demand, only for the names the API's ask allows (the e2e test runs this file).
    expect(caddyfile).toMatch(/ask http:\/\/\{\$PLATFORM_HOST:api\}:\{\$PLATFORM_PORT:3000\}\/internal\/tls\/ask/);
    expect(caddyfile).toMatch(/^https:\/\/ \{\n\ttls \{\n\t\ton_demand\n/m);
    expect(compose.services.proxy.environment?.SITES_DOMAIN).toBe('${SITES_DOMAIN:-localhost}');
  });

  it('sets only variables the config knows, passes .env through, and shares the generated secrets', () => {
    for (const [name, service] of appServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((key) => !CONFIG_KEYS.includes(key));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
      expect(Object.keys(service.environment ?? {})).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'APP_ROLE']));
      expect(service.env_file).toBe('../.env');
      expect(service.volumes).toEqual(['secrets:/secrets', 'files:/data/files']);
    }
  });

  it('is a valid Compose file: it passes the Compose Specification schema (what `docker compose config` checks), and a planted mistake does not', () => {
    const schemaErrors = (file: string): string[] => {
      // dclint exits 1 for its style rules too (the proxy's ports are public on purpose): only the schema counts here.
      let out: string;
      try {
        out = execFileSync(process.execPath, [join(ROOT, 'node_modules/dclint/bin/dclint.cjs'), file, '--quiet', '--formatter', 'json', '--color', 'false'], {
          encoding: 'utf8',
        });
      } catch (err) {
        out = (err as { stdout: string }).stdout;
      }
      // --quiet leaves out a file with no error at all.
      const [report] = JSON.parse(out) as Array<{ messages: Array<{ rule: string; message: string }> } | undefined>;
      return (report?.messages ?? []).filter((m) => m.rule === 'invalid-schema').map((m) => m.message);
    };
    expect(schemaErrors(join(ROOT, 'docker/compose.yaml'))).toEqual([]);
    const dir = mkdtempSync(join(tmpdir(), 'compose-'));
    try {
      const planted = join(dir, 'compose.yaml');
      writeFileSync(planted, read('docker/compose.yaml').replace('    deploy: { replicas: 2 }', '    replicas: 2'));
      expect(schemaErrors(planted)).toEqual([expect.stringContaining('instancePath="/services/api"')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps data in named volumes and health-checks the databases', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['caddy', 'files', 'pgdata', 'redisdata', 'secrets']);
    for (const name of ['postgres', 'redis']) {
      expect(compose.services[name].healthcheck?.test).toBeDefined();
      expect(compose.services[name].volumes?.[0]).toMatch(/^(pgdata|redisdata):/);
    }
  });
});

describe('docker/entrypoint.sh', () => {
  /** The entry point with its /secrets in a temporary directory, taken as mounted. */
  const entrypoint = () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const script = read('docker/entrypoint.sh').replace("grep -qs ' /secrets ' /proc/mounts", 'true').replaceAll('/secrets', dir);
    const run = (env: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn('sh', ['-c', script, 'entrypoint', 'sh', '-c', 'echo "$ADMIN_TOKEN $WEBHOOK_SECRET_KEY $SESSION_SECRET"'], {
          env: { PATH: process.env.PATH ?? '', ...env },
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        // 'close', not 'exit': the output may still be arriving when the process has exited.
        child.once('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
      });
    return { dir, run };
  };

  it('generates each shared secret once, the same for containers that start together', async () => {
    const { dir, run } = entrypoint();
    const answers = await Promise.all([run(), run(), run(), run()]);
    expect(new Set(answers).size).toBe(1);
    const [admin, webhookKey, session] = answers[0].split(' ');
    for (const value of [admin, webhookKey, session]) expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(join(dir, 'webhook-secret-key'), 'utf8')).toBe(webhookKey);
    expect(statSync(join(dir, 'session-secret')).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['admin-token', 'session-secret', 'webhook-secret-key']);
    await expect(run()).resolves.toBe(answers[0]);
  });

  it('prefers what the environment sets', async () => {
    const { run } = entrypoint();
    const [admin, , session] = (await run({ ADMIN_TOKEN: 'from-the-environment', SESSION_SECRET: 's'.repeat(32) })).split(' ');
    expect([admin, session]).toEqual(['from-the-environment', 's'.repeat(32)]);
  });

  it('does nothing without a volume at /secrets', () => {
    expect(read('docker/entrypoint.sh')).toMatch(/^if grep -qs ' \/secrets ' \/proc\/mounts; then$/m);
    expect(read('docker/Dockerfile')).toMatch(/^ENTRYPOINT \["platform-entrypoint"\]$/m);
  });
});

describe('.dockerignore', () => {
  it('sends the build only what the Dockerfile copies: no node_modules, data/, .env or dist/', () => {
    const rules = read('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    expect(rules[0]).toBe('*'); // everything out, then what the build needs back in
    const copied = [...read('docker/Dockerfile').matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1].split(' '));
    const allowed = rules.slice(1).map((rule) => rule.replace(/^!/, '').replace(/\/$/, ''));
    expect([...new Set(copied.map((path) => path.replace(/\/$/, '')))].sort()).toEqual(allowed.sort());
  });
});

describe('docker/Dockerfile', () => {
  const dockerfile = read('docker/Dockerfile');

  it('is multi-stage, ships production dependencies only and runs as a non-root user', () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/npm prune --omit=dev/);
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('health-checks /health/ready', () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK [\s\S]*\/health\/ready/m);
  });
});

describe('operator documentation', () => {
  it('shows the Caddyfile the proxy and the TLS e2e test run, as it is (docs/custom-domains.md)', () => {
    const shown = /```caddyfile\n([\s\S]*?)```/.exec(read('docs/custom-domains.md'))?.[1];
    expect(shown).toBe(read('docker/Caddyfile'));
  });

  it('has start scripts for each role', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts['start:api']).toMatch(/APP_ROLE=api node (--\S+ )*dist\/main\.js/);
    expect(scripts['start:worker']).toMatch(/APP_ROLE=worker node (--\S+ )*dist\/main\.js/);
  });

  it('runs every process with the same V8 heap settings (npm scripts, Dockerfile, compose, the bench)', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const flags = ['--max-semi-space-size=16', '--no-allocation-site-pretenuring', '--heap-growing-percent=20'];
    for (const name of ['start', 'start:api', 'start:worker']) expect(scripts[name]).toContain(`node ${flags.join(' ')} dist/main.js`);
    expect(read('docker/Dockerfile')).toContain(`CMD ["node", "${flags.join('", "')}", "dist/main.js"]`);
    // Compose's api and worker run the image's CMD: no command of their own.
    expect(read('docker/compose.yaml')).not.toContain('dist/main.js');
    expect(read('docker/Dockerfile')).not.toMatch(/ENV NODE_OPTIONS/); // Node refuses most V8 flags there
    expect(read('bench/run.mjs')).toContain(`const V8_HEAP_FLAGS = ['${flags.join("', '")}'];`);
  });
});

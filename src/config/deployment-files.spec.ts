import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { CONFIG_KEYS } from './app-config.js';

// No Docker engine runs on CI machines: these checks keep docker/ and the config in step instead.
const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  healthcheck?: { test: unknown };
  volumes?: string[];
}

describe('docker/compose.yaml', () => {
  const compose = load(read('docker/compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const appServices = Object.entries(compose.services).filter(([, s]) => s.build);

  it('runs postgres, redis, two API replicas and a worker, all built from docker/Dockerfile', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    expect(appServices.map(([name]) => name).sort()).toEqual(['api', 'worker']);
    expect(compose.services.api.environment?.APP_ROLE).toBe('api');
    expect(compose.services.api.deploy?.replicas).toBe(2);
    expect(compose.services.worker.environment?.APP_ROLE).toBe('worker');
  });

  it('sets only variables the config knows, on every app service', () => {
    for (const [name, service] of appServices) {
      const unknown = Object.keys(service.environment ?? {}).filter((key) => !CONFIG_KEYS.includes(key));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
      expect(Object.keys(service.environment ?? {})).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN', 'APP_ROLE']));
    }
  });

  it('keeps data in named volumes and health-checks the databases', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['pgdata', 'redisdata']);
    for (const name of ['postgres', 'redis']) {
      expect(compose.services[name].healthcheck?.test).toBeDefined();
      expect(compose.services[name].volumes?.[0]).toMatch(/^(pgdata|redisdata):/);
    }
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
  it('documents every variable the config knows in the README', () => {
    const readme = read('README.md');
    expect(CONFIG_KEYS.filter((key) => !readme.includes(`\`${key}\``))).toEqual([]);
  });

  it('has start scripts for each role', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts['start:api']).toMatch(/APP_ROLE=api node (--\S+ )*dist\/main\.js/);
    expect(scripts['start:worker']).toMatch(/APP_ROLE=worker node (--\S+ )*dist\/main\.js/);
  });

  it('runs every process with the same V8 heap settings (npm scripts, Dockerfile, the bench)', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const flags = ['--max-semi-space-size=32', '--no-allocation-site-pretenuring', '--heap-growing-percent=20'];
    for (const name of ['start', 'start:api', 'start:worker']) expect(scripts[name]).toContain(`node ${flags.join(' ')} dist/main.js`);
    expect(read('docker/Dockerfile')).toContain(`CMD ["node", "${flags.join('", "')}", "dist/main.js"]`);
    expect(read('docker/Dockerfile')).not.toMatch(/ENV NODE_OPTIONS/); // Node refuses most V8 flags there
    expect(read('bench/run.mjs')).toContain(`const V8_HEAP_FLAGS = ['${flags.join("', '")}'];`);
  });
});

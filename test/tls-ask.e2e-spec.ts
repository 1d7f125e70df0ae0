import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const SITES = 'apps.example.test';

/**
 * The TLS proxy's `ask` with the operator's settings: a live deployment's own labels get a yes only
 * with TLS_ASK_DEPLOYMENT_LABELS (without it see domains.e2e-spec.ts), and a client asking past
 * TLS_ASK_RATE_LIMIT_MAX a minute gets 429 — a flood of handshakes for made-up names costs nothing more.
 */
describe(`the TLS ask's settings (${target})`, () => {
  let app: TestApp;
  let dev: ApiClient;
  const LIMIT = 12;

  beforeAll(async () => {
    app = await startTestApp({
      env: { ...NO_RATE_LIMIT, SITES_DOMAIN: SITES, TRUST_PROXY: 'true', TLS_ASK_DEPLOYMENT_LABELS: 'true', TLS_ASK_RATE_LIMIT_MAX: String(LIMIT) },
    });
    dev = await newAccountClient(app);
  });
  afterAll(async () => {
    await app.close();
  });

  const ask = (domain: string, ip: string) =>
    app
      .http()
      .get(`/internal/tls/ask?domain=${encodeURIComponent(domain)}`)
      .set('x-forwarded-for', ip);

  it('says yes to a live deployment’s labels when the operator allows them, still no to a draft’s slug; 429 past the limit per client', async () => {
    const created = (await dev.post('/v1/apps', { name: 'Preview', slug: 'preview-shop' }).expect(201)).body;
    const deploymentId = (await dev.post('/v1/apps/deploy', { appId: created.appId, env: 'staging' }).expect(200)).body.deploymentId as string;
    const label = deploymentId.toLowerCase().replace('_', '-');
    const answers: Record<string, number> = {};
    for (const name of [`${label}.${SITES}`, `staging--preview-shop.${SITES}`, `preview-shop.${SITES}`, `nobody.${SITES}`])
      answers[name] = (await ask(name, '198.51.100.7')).status;
    expect(answers).toEqual({ [`${label}.${SITES}`]: 200, [`staging--preview-shop.${SITES}`]: 200, [`preview-shop.${SITES}`]: 404, [`nobody.${SITES}`]: 404 });

    // The same client: 4 asks so far; up to LIMIT answered, then 429 (the proxy takes it as a no), with Retry-After.
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await ask(`made-up-${i}.example.net`, '198.51.100.7')).status);
    expect(statuses).toEqual([...Array(LIMIT - 4).fill(404), ...Array(4).fill(429)]);
    const limited = await ask(`${label}.${SITES}`, '198.51.100.7');
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 429, reason: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client is counted on its own.
    expect((await ask(`${label}.${SITES}`, '198.51.100.8')).status).toBe(200);
  });
});

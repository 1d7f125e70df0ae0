import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { ApiClient, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { describeWithCaddy, freePort, RunningCaddy, startCaddy } from './support/caddy.js';
import { TestDnsServer } from './support/dns-server.js';
import { startTestApp, target, TestApp } from './support/test-app.js';

const SITES = 'apps.example.test';

interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  issuer: string;
}

/** Every name resolves to 127.0.0.1, where caddy listens (as DNS pointing the name at the proxy would). */
const toLoopback = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
  options?.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) as unknown as LookupFunction;

/**
 * Custom domains behind Debian's caddy running docker/Caddyfile (the production one): on-demand TLS
 * asks the service, so a verified domain gets a certificate (from caddy's local authority here) and its
 * page over https, and a name the service does not serve gets no certificate — the handshake fails.
 */
describeWithCaddy(`custom domains behind caddy with on-demand TLS (${target})`, () => {
  let app: TestApp;
  let caddy: RunningCaddy;
  let dev: ApiClient;
  const dns = new TestDnsServer();

  beforeAll(async () => {
    await dns.start();
    // The service's own address is https://localhost:<caddy's port>: caddy serves it too (and asks for it).
    const httpsPort = await freePort();
    app = await startTestApp({
      env: { ...NO_RATE_LIMIT, SITES_DOMAIN: SITES, DNS_SERVERS: dns.address, PUBLIC_URL: `https://localhost:${httpsPort}`, TRUST_PROXY: '127.0.0.1' },
    });
    caddy = await startCaddy(Number(new URL(app.url).port), { SITES_DOMAIN: SITES, PUBLIC_URL: 'https://localhost', HTTPS_PORT: String(httpsPort) });
    dev = await newAccountClient(app);
  }, 60_000);
  afterAll(async () => {
    await caddy?.stop();
    await app?.close();
    await dns.stop();
  });

  /** GET https://<host>/<path> through caddy, trusting only its local authority. */
  const get = (host: string, path = '/', headers: Record<string, string> = { accept: 'text/html' }) =>
    new Promise<HttpsAnswer>((resolve, reject) => {
      const req = httpsRequest({ host, port: caddy.httpsPort, path, headers, ca: caddy.rootCa(), lookup: toLoopback, agent: false, timeout: 15_000 }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body, issuer: String((res.socket as TLSSocket).getPeerCertificate().issuer?.CN ?? '') }),
        );
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end();
    });

  /** How many times the service answered caddy's ask with 404 (from /metrics). */
  const askRefusals = async () => {
    const metrics = (await app.http().get('/metrics').expect(200)).text;
    return Number(/^http_requests_total\{method="GET",route="\/internal\/tls\/ask",status="404"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  };

  it('serves a verified domain over https with a certificate got on demand, refuses one for any other name, and stops at deletion', async () => {
    const created = (await dev.post('/v1/apps', { name: 'Behind Caddy', slug: 'behind-caddy' }).expect(201)).body;
    const deploymentId = (await dev.post('/v1/apps/deploy', { appId: created.appId, env: 'production' }).expect(200)).body.deploymentId;
    await dev.post(`/v1/apps/${created.appId}/publish`, {}).expect(200);
    const domain = (await dev.post(`/v1/apps/${created.appId}/domains`, { hostname: 'shop.caddy.example' }).expect(201)).body;

    // Pending: the service says no, so caddy gets no certificate and the handshake fails.
    await expect(get('shop.caddy.example')).rejects.toThrow(/alert|ssl|tls|socket hang up|ECONNRESET/i);
    expect(await askRefusals()).toBe(1);

    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    dns.set('shop.caddy.example', { cname: domain.target.value });
    expect((await dev.post(`/v1/domains/${domain.id}/verify`).expect(200)).body).toMatchObject({ status: 'verified', configured: true });

    const page = await get('shop.caddy.example');
    expect(page.status).toBe(200);
    expect(page.issuer).toMatch(/Caddy Local Authority/);
    expect(page.headers['x-deployment-id']).toBe(deploymentId);
    expect(page.body).toContain('action="/signup"');
    // The published app's own host (the wildcard certificate) and the API's own address, through the same proxy.
    const bySlug = await get(`behind-caddy.${SITES}`);
    expect([bySlug.status, bySlug.headers['x-deployment-id']]).toEqual([200, deploymentId]);
    const health = await get('localhost', '/health/live', { accept: 'application/json' });
    expect(health.status).toBe(200);

    // The ask is the proxy's own, over the private network: from outside, through the proxy, no spelling reaches it.
    await app.http().get('/internal/tls/ask?domain=localhost').expect(200);
    for (const path of ['/internal/tls/ask', '/INTERNAL/tls/ask', '//internal/tls/ask', '/%69nternal/tls/ask', '/internal%2Ftls/ask']) {
      const outside = await get('localhost', `${path}?domain=localhost`, { accept: 'application/json' });
      expect({ path, status: outside.status, body: outside.body }).toEqual({ path, status: 404, body: '' });
    }

    // A name nobody verified never gets a certificate: caddy asked, the service said no.
    const refusals = await askRefusals();
    await expect(get('unknown.caddy.example')).rejects.toThrow(/alert|ssl|tls|socket hang up|ECONNRESET/i);
    expect(await askRefusals()).toBe(refusals + 1);

    // Unpublished: 410 over https.
    await dev.post(`/v1/apps/${created.appId}/unpublish`, {}).expect(200);
    const gone = await get('shop.caddy.example');
    expect(gone.status).toBe(410);
    expect(gone.body).toContain('This app was taken down');

    // Deleted: the name stops serving the app, and the proxy may get no new certificate for it.
    await dev.delete(`/v1/domains/${domain.id}`).expect(204);
    const after = await get('shop.caddy.example', '/', { accept: 'application/json' });
    expect(after.status).toBe(404);
    expect(after.headers['x-deployment-id']).toBeUndefined();
    await app.http().get('/internal/tls/ask?domain=shop.caddy.example').expect(404);
  });
});

import { AnalyticsBuffer } from '../src/analytics/analytics-buffer.js';
import { splitResults } from '../src/publishing/split-statistics.js';
import { SignupTokens } from '../src/sites/signup-token.js';
import { SignupService } from '../src/sites/signup.service.js';
import { ApiClient, expectErrorBody, newAccountClient, NO_RATE_LIMIT } from './support/api-client.js';
import { uploadAll } from './support/files.js';
import { SiteAnswer, siteRequest } from './support/site-http.js';
import { TestDnsServer } from './support/dns-server.js';
import { startTestApp, target, TestApp } from './support/test-app.js';
import { appWithReceiver, until } from './support/webhook-receiver.js';

/** Visitor number `i`: its own address (the header tests use for the client) and its own browser version. */
const visitor = (i: number) => ({
  'x-forwarded-for': `198.18.${(i >> 8) & 255}.${i & 255}`,
  'user-agent': `Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.${i % 10}`,
});
const page = (name: string) => `<!doctype html><html><head><title>${name}</title></head><body><h1>${name}</h1></body></html>`;
const headline = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

describe(`split tests between deployments (${target})`, () => {
  // TRUST_PROXY: the visitor's address is X-Forwarded-For, as behind the platform's proxy.
  const setup = appWithReceiver({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true' } });
  let dev: ApiClient;
  let port: string;

  beforeAll(async () => {
    dev = await newAccountClient(setup.app);
    port = new URL(setup.app.url).port;
    await dev.post('/v1/webhook-endpoints', { url: `${setup.receiver.url}/splits`, events: ['split.*'] }).expect(201);
  });

  /** A published app of its own with a files deployment per name (the first published). */
  const appWithVariants = async (slug: string, names: string[]) => {
    const appId = (await dev.post('/v1/apps', { name: slug, slug }).expect(201)).body.appId as string;
    const ids: Record<string, string> = {};
    for (const name of names) {
      const files = await uploadAll(setup.app, dev, { '/index.html': page(name) });
      ids[name] = (await dev.post('/v1/apps/deploy', { appId, env: 'production', files }).expect(200)).body.deploymentId;
    }
    await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: ids[names[0]] }).expect(200);
    return { appId, ids };
  };
  const origin = (slug: string, path: string, i: number, headers: Record<string, string> = {}) =>
    siteRequest(setup.app.url, `${slug}.localhost:${port}`, path, { headers: { ...visitor(i), ...headers } });
  const deliveries = (appId: string, event: string) =>
    setup.receiver
      .at('/splits')
      .map((r) => JSON.parse(r.raw) as { event: string; data: Record<string, unknown> & { appId: string } })
      .filter((b) => b.event === event && b.data.appId === appId);
  /** Visitor `i` signs up through the form of `deploymentId` (the variant they are served). */
  const signUp = async (slug: string, i: number, deploymentId: string) => {
    const post = await siteRequest(setup.app.url, `${slug}.localhost:${port}`, '/signup', {
      method: 'POST',
      headers: { ...visitor(i), 'content-type': 'application/x-www-form-urlencoded' },
      // A token of the variant's deployment, old enough not to look like a bot's.
      body: new URLSearchParams({
        email: `visitor-${i}@example.com`,
        website: '',
        token: setup.app.server.app.get(SignupTokens).issue(deploymentId, Date.now() - 5000),
      }).toString(),
    });
    expect([post.status, post.headers.location]).toEqual([303, '/thanks']);
  };
  /** Sign-ups and pageviews written to analytics (raw rows and rollups). */
  const settle = async () => {
    await setup.app.server.app.get(SignupService).settled();
    await setup.app.server.app.get(AnalyticsBuffer).flush();
  };
  const expectPrivate = (answer: SiteAnswer) => {
    expect(answer.headers['cache-control']).toMatch(/^private(,|$)/);
    expect(answer.headers['cache-control']).not.toMatch(/public|s-maxage/);
    expect(answer.headers.vary).toMatch(/User-Agent/);
    expect(answer.headers['set-cookie']).toBeUndefined();
  };

  describe('starting', () => {
    it('refuses a bad variant list, naming the field, and an app that is not published', async () => {
      const { appId, ids } = await appWithVariants('split-refusals', ['A', 'B']);
      const [a, b] = [ids.A, ids.B];
      const staging = (await dev.post('/v1/apps/deploy', { appId, env: 'staging' }).expect(200)).body.deploymentId as string;
      const other = await appWithVariants('split-elsewhere', ['C']);
      const cases: Array<[unknown, RegExp]> = [
        [{ variants: [{ deploymentId: a, weight: 100 }] }, /variants must contain at least 2 elements/],
        [{ variants: [a, b, a, b, a].map((deploymentId) => ({ deploymentId, weight: 20 })) }, /variants must contain no more than 4 elements/],
        [
          {
            variants: [
              { deploymentId: a, weight: 0 },
              { deploymentId: b, weight: 100 },
            ],
          },
          /variants\.0\.weight must not be less than 1/,
        ],
        [
          {
            variants: [
              { deploymentId: a, weight: 50.5 },
              { deploymentId: b, weight: 49.5 },
            ],
          },
          /variants\.0\.weight must be an integer/,
        ],
        [
          {
            variants: [
              { deploymentId: a, weight: 60 },
              { deploymentId: b, weight: 30 },
            ],
          },
          /variants weights must sum to 100 \(they sum to 90\)/,
        ],
        [
          {
            variants: [
              { deploymentId: a, weight: 50 },
              { deploymentId: a, weight: 50 },
            ],
          },
          /variants\.1\.deploymentId repeats variants\.0\.deploymentId/,
        ],
        [
          {
            variants: [
              { deploymentId: a, weight: 50 },
              { deploymentId: staging, weight: 50 },
            ],
          },
          /variants\.1\.deploymentId must be a production deployment/,
        ],
        [
          {
            variants: [
              { deploymentId: other.ids.C, weight: 50 },
              { deploymentId: b, weight: 50 },
            ],
          },
          /variants\.0\.deploymentId must be a production deployment/,
        ],
        [{}, /variants must be an array/],
      ];
      for (const [body, message] of cases) {
        const res = await dev.put(`/v1/apps/${appId}/split`, body as object);
        expect([res.status, res.body.reason]).toEqual([400, 'invalid_parameter']);
        expect(res.body.message).toMatch(message);
      }
      await dev.post(`/v1/apps/${appId}/unpublish`, {}).expect(200);
      const unpublished = await dev
        .put(`/v1/apps/${appId}/split`, {
          variants: [
            { deploymentId: a, weight: 50 },
            { deploymentId: b, weight: 50 },
          ],
        })
        .expect(409);
      expectErrorBody(unpublished.body, 409, `App ${appId} is not published`);
      expect(await setup.app.query(`SELECT id FROM app_splits WHERE app_id = $1`, [appId])).toEqual([]);
      const none = await dev.get(`/v1/apps/${appId}/split`).expect(404);
      expect(none.body.reason).toBe('split_not_found');
      expect((await dev.delete(`/v1/apps/${appId}/split`).expect(404)).body.reason).toBe('split_not_found');
    });
  });

  describe('serving', () => {
    it('answers each visitor one variant by weight, the same one every time, privately and without a cookie', async () => {
      const { appId, ids } = await appWithVariants('split-weights', ['A', 'B']);
      const started = await dev
        .put(`/v1/apps/${appId}/split`, {
          variants: [
            { deploymentId: ids.A, weight: 70 },
            { deploymentId: ids.B, weight: 30 },
          ],
        })
        .expect(200);
      expect(started.body).toEqual({
        id: expect.stringMatching(/^spl_/),
        variants: [
          { deploymentId: ids.A, weight: 70 },
          { deploymentId: ids.B, weight: 30 },
        ],
        startedAt: expect.any(String),
      });
      const seen = new Map<number, string>();
      const counts: Record<string, number> = { A: 0, B: 0 };
      const VISITORS = 400;
      for (let i = 0; i < VISITORS; i++) {
        const answer = await origin('split-weights', '/', i);
        expect(answer.status).toBe(200);
        expectPrivate(answer);
        const name = headline(answer.text)!;
        seen.set(i, name);
        counts[name]++;
      }
      // Binomial(400, 0.7): mean 280, sd 9.2; four sd either side.
      expect(counts.A).toBeGreaterThanOrEqual(280 - 37);
      expect(counts.A).toBeLessThanOrEqual(280 + 37);
      expect(counts.A + counts.B).toBe(VISITORS);
      // One visitor, one variant: again (the lean path now), a file by its own name, a conditional request.
      for (let i = 0; i < 40; i++) {
        expect(headline((await origin('split-weights', '/', i)).text)).toBe(seen.get(i));
        const direct = await origin('split-weights', '/index.html', i);
        expect(headline(direct.text)).toBe(seen.get(i));
        expectPrivate(direct);
        const again = await origin('split-weights', '/', i, { 'if-none-match': direct.headers.etag as string });
        expect(again.status).toBe(304);
        expect(again.headers['cache-control']).toMatch(/^private/);
      }
      // A missing page under the split is private too (answered through Fastify's route).
      expectPrivate(await origin('split-weights', '/nothing-here', 1, { accept: 'text/html' }));
      await until(() => deliveries(appId, 'split.started').length === 1, 10_000, 'split.started delivered');
      expect(deliveries(appId, 'split.started')[0].data).toEqual({ appId, splitId: started.body.id, variants: started.body.variants });
    });

    it('sends a function request to the visitor’s variant too, privately: the same variant as its files', async () => {
      const appId = (await dev.post('/v1/apps', { name: 'Function split', slug: 'split-functions' }).expect(201)).body.appId as string;
      const ids: Record<string, string> = {};
      for (const name of ['A', 'B']) {
        const files = await uploadAll(setup.app, dev, {
          '/index.html': page(name),
          // The function's own caching says public: under the split it must not reach a shared cache.
          '/_server/index.js': `export default { fetch: () => new Response('${name}', { headers: { 'cache-control': 'public, max-age=60', vary: 'Accept' } }) };\n`,
        });
        ids[name] = (
          await dev.post('/v1/apps/deploy', { appId, env: 'production', files, config: { functions: { entry: '/_server/index.js' } } }).expect(200)
        ).body.deploymentId;
      }
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: ids.A }).expect(200);
      await dev
        .put(`/v1/apps/${appId}/split`, {
          variants: [
            { deploymentId: ids.A, weight: 50 },
            { deploymentId: ids.B, weight: 50 },
          ],
        })
        .expect(200);
      const counts: Record<string, number> = { A: 0, B: 0 };
      for (let i = 500; i < 540; i++) {
        const files = headline((await origin('split-functions', '/', i)).text)!;
        const api = await origin('split-functions', '/api/which', i);
        expect([api.status, api.text]).toEqual([200, files]);
        expect(api.headers['cache-control']).toBe('private, max-age=60');
        expect(api.headers.vary).toBe('Accept, User-Agent');
        counts[files]++;
      }
      // Both variants' functions answered (Binomial(40, 0.5): none at all has a chance of 2 in a trillion).
      expect(counts.A).toBeGreaterThan(0);
      expect(counts.B).toBeGreaterThan(0);
      // Without the test, the published deployment's function answers everyone, as it sent it.
      await dev.delete(`/v1/apps/${appId}/split`).expect(204);
      for (let i = 500; i < 510; i++) {
        const api = await origin('split-functions', '/api/which', i);
        expect([api.text, api.headers['cache-control']]).toEqual(['A', 'public, max-age=60']);
      }
    });

    it('splits /p/<slug>/ too (a landing page): the same visitor the same variant there and on the slug origin', async () => {
      const appId = (await dev.post('/v1/apps', { name: 'Landing split', slug: 'split-landing' }).expect(201)).body.appId as string;
      const deployWith = async (text: string) => {
        const current = (await dev.get(`/v1/apps/${appId}/landing-page`).expect(200)).body.page;
        await dev.put(`/v1/apps/${appId}/landing-page`, { ...current, hero: { ...current.hero, headline: text } }).expect(200);
        return (await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body.deploymentId as string;
      };
      const first = await deployWith('First words');
      const second = await deployWith('Second words');
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: first }).expect(200);
      await dev
        .put(`/v1/apps/${appId}/split`, {
          variants: [
            { deploymentId: first, weight: 50 },
            { deploymentId: second, weight: 50 },
          ],
        })
        .expect(200);
      const seen: Record<string, number> = {};
      for (let i = 0; i < 60; i++) {
        const res = await setup.app.http().get('/p/split-landing/').set(visitor(i)).expect(200);
        expect(res.headers['cache-control']).toMatch(/^private/);
        expect(res.headers.vary).toMatch(/User-Agent/);
        expect(res.headers['set-cookie']).toBeUndefined();
        const name = headline(res.text)!;
        seen[name] = (seen[name] ?? 0) + 1;
        const again = await setup.app.http().get('/p/split-landing/').set(visitor(i)).expect(200);
        expect(headline(again.text)).toBe(name);
        // The site origin of the slug serves this visitor the same variant.
        expect(headline((await origin('split-landing', '/', i)).text)).toBe(name);
      }
      expect(Object.keys(seen).sort()).toEqual(['First words', 'Second words']);
    });
  });

  describe('results and ending', () => {
    it('counts each variant’s visitors and sign-ups through its own form, and reports them when DELETE ends the test', async () => {
      const { appId, ids } = await appWithVariants('split-results', ['A', 'B']);
      const started = (
        await dev
          .put(`/v1/apps/${appId}/split`, {
            variants: [
              { deploymentId: ids.A, weight: 50 },
              { deploymentId: ids.B, weight: 50 },
            ],
          })
          .expect(200)
      ).body;
      const variantOf = new Map<number, string>();
      for (let i = 1000; i < 1060; i++) variantOf.set(i, headline((await origin('split-results', '/', i)).text)!);
      // Sign-ups through the form of the variant each visitor is served: 12 of A's visitors, 4 of B's.
      const signedUp: Record<string, number> = { A: 0, B: 0 };
      for (const [i, name] of variantOf) {
        if (signedUp[name] >= (name === 'A' ? 12 : 4)) continue;
        await signUp('split-results', i, ids[name]);
        signedUp[name]++;
      }
      await settle();
      const visitors = { A: [...variantOf.values()].filter((n) => n === 'A').length, B: [...variantOf.values()].filter((n) => n === 'B').length };
      const users = await setup.app.query<{ deployment_id: string; n: number }>(
        `SELECT e.data->>'deploymentId' AS deployment_id, count(*)::int AS n FROM events e WHERE e.kind = 'user.created' AND e.data->>'appId' = $1 GROUP BY 1 ORDER BY 1`,
        [appId],
      );
      expect(Object.fromEntries(users.map((u) => [u.deployment_id, u.n]))).toEqual({ [ids.A]: 12, [ids.B]: 4 });
      const expected = splitResults(started.variants, [
        { visitors: visitors.A, signups: 12 },
        { visitors: visitors.B, signups: 4 },
      ]);
      const results = (await dev.get(`/v1/apps/${appId}/split`).expect(200)).body;
      expect(results).toEqual({ id: started.id, startedAt: started.startedAt, variants: expected });
      expect(results.variants[0]).toMatchObject({ deploymentId: ids.A, signups: 12, chanceToBeatFirst: null });
      expect(results.variants[1].chanceToBeatFirst).toBeLessThan(0.5); // B converts worse

      await dev.delete(`/v1/apps/${appId}/split`).expect(204);
      expect((await dev.get(`/v1/apps/${appId}/split`).expect(404)).body.reason).toBe('split_not_found');
      const [row] = await setup.app.query<{ ended_by: string; ended: boolean }>(
        `SELECT ended_by, ended_at IS NOT NULL AS ended FROM app_splits WHERE id = $1`,
        [started.id],
      );
      expect(row).toEqual({ ended_by: 'deleted', ended: true });
      // Audited, start and end, by the key that did them: the app, the test and its variants.
      const target = { type: 'split', id: `${appId}/${started.id}/${ids.A}=50,${ids.B}=50` };
      for (const action of ['split.started', 'split.ended']) {
        const audited = (await dev.get(`/v1/audit-log?action=${action}&limit=100`).expect(200)).body.data as Array<{ target: { id: string } }>;
        expect(audited.filter((e) => e.target.id === target.id)).toEqual([
          expect.objectContaining({ action, actor: expect.objectContaining({ type: 'credential' }), target }),
        ]);
      }
      // The published deployment serves everyone again, publicly cacheable.
      for (const i of [...variantOf.keys()].slice(0, 20)) {
        const answer = await origin('split-results', '/', i);
        expect(headline(answer.text)).toBe('A');
        expect(answer.headers['cache-control']).toMatch(/^public/);
      }
      await until(() => deliveries(appId, 'split.ended').length === 1, 10_000, 'split.ended delivered');
      expect(deliveries(appId, 'split.ended')[0].data).toEqual({ appId, splitId: started.id, endedBy: 'deleted', variants: expected });
    });

    it('counts from startedAt, not from its day: the visitors and sign-ups of that morning stay out, later days count whole', async () => {
      const { appId, ids } = await appWithVariants('split-since', ['A', 'B']);
      // Before the test, the same day: 20 visitors of the published A, 3 of them sign up through its form.
      for (let i = 3000; i < 3020; i++) expect(headline((await origin('split-since', '/', i)).text)).toBe('A');
      for (const i of [3000, 3001, 3002]) await signUp('split-since', i, ids.A);
      await settle();
      const before = await dev.get(`/v1/apps/${appId}/analytics/breakdown?period=day&property=deployment&metrics=visitors,signups`).expect(200);
      expect(before.body.data).toEqual([{ deployment: ids.A, visitors: 20, signups: 3 }]);

      const started = (
        await dev
          .put(`/v1/apps/${appId}/split`, {
            variants: [
              { deploymentId: ids.A, weight: 50 },
              { deploymentId: ids.B, weight: 50 },
            ],
          })
          .expect(200)
      ).body;
      const variantOf = new Map<number, string>();
      for (let i = 3100; i < 3140; i++) variantOf.set(i, headline((await origin('split-since', '/', i)).text)!);
      const after = { A: [...variantOf.keys()].filter((i) => variantOf.get(i) === 'A'), B: [...variantOf.keys()].filter((i) => variantOf.get(i) === 'B') };
      expect(after.A.length).toBeGreaterThan(2);
      expect(after.B.length).toBeGreaterThan(1);
      for (const i of after.A.slice(0, 2)) await signUp('split-since', i, ids.A);
      await signUp('split-since', after.B[0], ids.B);
      await settle();
      const results = (await dev.get(`/v1/apps/${appId}/split`).expect(200)).body;
      expect(results.variants.map((v: { visitors: number; signups: number }) => [v.visitors, v.signups])).toEqual([
        [after.A.length, 2],
        [after.B.length, 1],
      ]);

      // A test started yesterday: yesterday from its raw rows after the start (none here), today whole from the rollups,
      // this morning's visitors and sign-ups included.
      await setup.app.query(`UPDATE app_splits SET started_at = started_at - interval '1 day' WHERE id = $1`, [started.id]);
      const older = (await dev.get(`/v1/apps/${appId}/split`).expect(200)).body;
      expect(older.variants.map((v: { visitors: number; signups: number }) => [v.visitors, v.signups])).toEqual([
        [20 + after.A.length, 3 + 2],
        [after.B.length, 1],
      ]);
    });

    it('ends when any deployment is published: the winner serves everyone', async () => {
      const { appId, ids } = await appWithVariants('split-winner', ['A', 'B', 'C']);
      const started = (
        await dev
          .put(`/v1/apps/${appId}/split`, {
            variants: [
              { deploymentId: ids.A, weight: 34 },
              { deploymentId: ids.B, weight: 33 },
              { deploymentId: ids.C, weight: 33 },
            ],
          })
          .expect(200)
      ).body;
      const names = new Set<string>();
      for (let i = 2000; i < 2060; i++) names.add(headline((await origin('split-winner', '/', i)).text)!);
      expect([...names].sort()).toEqual(['A', 'B', 'C']);
      await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: ids.B }).expect(200);
      for (let i = 2000; i < 2030; i++) expect(headline((await origin('split-winner', '/', i)).text)).toBe('B');
      expect((await dev.get(`/v1/apps/${appId}/split`).expect(404)).body.reason).toBe('split_not_found');
      await until(() => deliveries(appId, 'split.ended').length === 1, 10_000, 'split.ended delivered');
      const ended = deliveries(appId, 'split.ended')[0].data as unknown as { splitId: string; endedBy: string; variants: Array<{ deploymentId: string }> };
      expect([ended.splitId, ended.endedBy, ended.variants.map((v) => v.deploymentId)]).toEqual([started.id, 'published', [ids.A, ids.B, ids.C]]);
    });
  });
});

describe(`split tests on a verified custom domain (${target})`, () => {
  const dns = new TestDnsServer();
  let app: TestApp;
  let dev: ApiClient;

  beforeAll(async () => {
    await dns.start();
    app = await startTestApp({ env: { ...NO_RATE_LIMIT, TRUST_PROXY: 'true', DNS_SERVERS: dns.address } });
    dev = await newAccountClient(app);
  });
  afterAll(async () => {
    await app?.close();
    await dns.stop();
  });

  it('answers each visitor of the domain their variant, privately', async () => {
    const appId = (await dev.post('/v1/apps', { name: 'Domain split', slug: 'split-domain' }).expect(201)).body.appId as string;
    const ids: string[] = [];
    for (const headline of ['Domain first', 'Domain second']) {
      const current = (await dev.get(`/v1/apps/${appId}/landing-page`).expect(200)).body.page;
      await dev.put(`/v1/apps/${appId}/landing-page`, { ...current, hero: { ...current.hero, headline } }).expect(200);
      ids.push((await dev.post('/v1/apps/deploy', { appId, env: 'production' }).expect(200)).body.deploymentId);
    }
    await dev.post(`/v1/apps/${appId}/publish`, { deploymentId: ids[0] }).expect(200);
    const domain = (await dev.post(`/v1/apps/${appId}/domains`, { hostname: 'www.split.example' }).expect(201)).body;
    dns.set(domain.verification.name, { txt: [domain.verification.value] });
    expect((await dev.post(`/v1/domains/${domain.id}/verify`, {}).expect(200)).body.status).toBe('verified');
    await dev
      .put(`/v1/apps/${appId}/split`, {
        variants: [
          { deploymentId: ids[0], weight: 50 },
          { deploymentId: ids[1], weight: 50 },
        ],
      })
      .expect(200);
    const seen: Record<string, number> = {};
    for (let i = 0; i < 60; i++) {
      const answer = await siteRequest(app.url, 'www.split.example', '/', { headers: { ...visitor(i), accept: 'text/html' } });
      expect(answer.status).toBe(200);
      expect(answer.headers['cache-control']).toMatch(/^private/);
      expect(answer.headers.vary).toMatch(/User-Agent/);
      expect(answer.headers['set-cookie']).toBeUndefined();
      const name = headline(answer.text)!;
      seen[name] = (seen[name] ?? 0) + 1;
      const again = await siteRequest(app.url, 'www.split.example', '/', { headers: { ...visitor(i), accept: 'text/html' } });
      expect(headline(again.text)).toBe(name);
    }
    expect(Object.keys(seen).sort()).toEqual(['Domain first', 'Domain second']);
  });
});

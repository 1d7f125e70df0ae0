// The bare reference for load 4: Fastify + pg taking the same beacons as POST /collect and
// inserting the same rows (one per beacon, the same columns) in batches of up to 1000, at least
// once a second — no bot check, no User-Agent parsing, no visitor hashing, no visits or rollups.
//   env: DATABASE_URL, PORT
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });
app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));

let pending = [];
async function flush() {
  if (pending.length === 0) return;
  const rows = pending.splice(0, 1000);
  const col = (k) => rows.map((r) => r[k]);
  await pool.query(
    `INSERT INTO analytics_events (app_id, deployment_id, occurred_at, visitor_id, name, pathname, referrer_host, utm_source, utm_medium, utm_campaign, browser, os, device)
     SELECT * FROM unnest($1::varchar[], $2::varchar[], $3::timestamptz[], $4::bigint[], $5::varchar[], $6::varchar[], $7::varchar[],
                          $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::varchar[], $13::varchar[])`,
    [
      'appId',
      'deploymentId',
      'occurredAt',
      'visitorId',
      'name',
      'pathname',
      'referrerHost',
      'utmSource',
      'utmMedium',
      'utmCampaign',
      'browser',
      'os',
      'device',
    ].map(col),
  );
}
setInterval(() => void flush().catch((err) => console.error(err)), 1000).unref();

let seq = 0;
app.post('/collect', async (request, reply) => {
  const body = typeof request.body === 'string' ? JSON.parse(request.body) : request.body;
  const url = new URL(body.url);
  pending.push({
    appId: body.appId,
    deploymentId: null,
    occurredAt: new Date().toISOString(),
    visitorId: String(seq++),
    name: body.name,
    pathname: url.pathname,
    referrerHost: null,
    utmSource: url.searchParams.get('utm_source'),
    utmMedium: null,
    utmCampaign: null,
    browser: 'Firefox',
    os: 'Linux',
    device: 'desktop',
  });
  if (pending.length >= 1000) void flush();
  reply.code(202).header('access-control-allow-origin', '*');
  return '';
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ port: Number(process.env.PORT) });

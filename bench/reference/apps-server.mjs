// The bare reference for loads 1 and 2: Fastify + pg, no auth, no validation, no framework.
// It runs the service's own SQL and answers the same JSON, so the ratio measures what the
// service adds (auth, throttling, validation, events, logging) on top of the database work.
//   env: DATABASE_URL, ACCOUNT_ID (the seeded account), PORT, SERVICE_URL (base of public addresses)
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { appsPage } from './apps-page.mjs';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const accountId = process.env.ACCOUNT_ID;
const publicUrl = `http://127.0.0.1:${process.env.PORT}`;
const app = Fastify({ logger: false });

app.get('/v1/apps', (request) => appsPage(pool, accountId, Number(request.query.limit ?? 20)));

app.post('/v1/apps/deploy', async (request) => {
  const { appId, env } = request.body;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const {
      rows: [app],
    } = await client.query('SELECT id, name, description FROM apps WHERE account_id = $1 AND id = $2 FOR SHARE', [accountId, appId]);
    const id = `dep_${randomBytes(13).toString('hex').toUpperCase()}`;
    const {
      rows: [row],
    } = await client.query('INSERT INTO deployments (id, account_id, app_id, env, snapshot) VALUES ($1, $2, $3, $4, $5) RETURNING created_at', [
      id,
      accountId,
      appId,
      env,
      { name: app.name, description: app.description },
    ]);
    await client.query('COMMIT');
    return { status: 'success', deploymentId: id, url: `${publicUrl}/sites/${id}/`, appId, env, createdAt: row.created_at.toISOString() };
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');

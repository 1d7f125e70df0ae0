// The bare reference for load 11 (sign-up form posts): Fastify + pg taking the same form
// (`email`, `website`, `token`, form-encoded) and inserting the same user row (id, account, app,
// e-mail) into the same table, one INSERT per post, then answering the same 303 to /thanks — no
// token check, no rate limit, no event, no analytics.
//   env: DATABASE_URL, ACCOUNT_ID, APP_ID, PORT
import formbody from '@fastify/formbody';
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const { ACCOUNT_ID: accountId, APP_ID: appId } = process.env;
const app = Fastify({ logger: false });
await app.register(formbody);

app.post('/signup', async (request, reply) => {
  const email = String(request.body.email).trim().toLowerCase();
  await pool.query('INSERT INTO users (id, account_id, app_id, email) VALUES ($1, $2, $3, $4)', [
    `usr_${randomBytes(13).toString('hex').toUpperCase()}`,
    accountId,
    appId,
    email,
  ]);
  return reply.redirect('/thanks', 303);
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ port: Number(process.env.PORT) });

import pg from 'pg';
import { ADMIN_TOKEN, startTestApp, target } from './test-app.js';

/** Every row of every table, as one string: where a stored prompt would show. */
export async function everyRow(query: (sql: string) => Promise<Array<Record<string, unknown>>>): Promise<string> {
  const tables = await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`);
  expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['ai_usage', 'accounts']));
  let all = '';
  for (const { table_name } of tables) all += JSON.stringify(await query(`SELECT * FROM "${table_name as string}"`));
  return all;
}

/** Every table of a stopped child server's database: reopened through a test app on the same data. */
export async function everyRowOf(env: Record<string, string>): Promise<string> {
  if (target === 'postgres') {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      return await everyRow(async (sql) => (await client.query(sql)).rows as Array<Record<string, unknown>>);
    } finally {
      await client.end();
    }
  }
  const app = await startTestApp({ reuse: { dataDir: env.DATA_DIR, env }, keep: true });
  try {
    return await everyRow((sql) => app.query(sql));
  } finally {
    await app.close();
  }
}

/** An account on a server reached by URL (a child process), through the admin API. */
export async function createAccountOn(url: string): Promise<{ apiKey: string; accountId: string }> {
  const res = await fetch(`${url}/v1/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `privacy-${Date.now()}@example.org` }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { apiKey: string; accountId: string };
}

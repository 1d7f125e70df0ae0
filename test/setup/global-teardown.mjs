import { Redis } from 'ioredis';

/**
 * After the run: no test app may leave keys in Redis. Each one's prefix starts with the run's id
 * (see global-setup) and is dropped when the app closes (dropFreshResources); keys found here
 * come from an app that was never closed or that wrote after closing. They are removed, and the
 * run fails naming their prefixes.
 */
export default async function globalTeardown() {
  const runId = process.env.E2E_RUN_ID;
  if (!runId || !process.env.REDIS_URL || !process.env.DATABASE_URL) return;
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const left = new Map();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `t${runId}*`, 'COUNT', 1000);
      for (const key of keys) left.set(key.split(':', 1)[0], (left.get(key.split(':', 1)[0]) ?? 0) + 1);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await redis.quit();
  }
  if (left.size > 0) {
    const list = [...left].map(([prefix, count]) => `${prefix} (${count})`).join(', ');
    throw new Error(`Test apps left Redis keys behind (now removed), by prefix: ${list}`);
  }
}

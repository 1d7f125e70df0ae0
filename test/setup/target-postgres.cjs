process.env.E2E_TARGET = 'postgres';
if (!process.env.REDIS_URL) console.warn('e2e-postgres: REDIS_URL is not set; queues and rate limits stay in-process');

// The bare reference for load 3: a Bull worker that POSTs each job's body, signed, with undici,
// at the service's concurrency (CONCURRENCY: the bench passes the service's WEBHOOK_CONCURRENCY), and lets Bull
// retry a non-2xx. No database, no attempt log.
//   env: REDIS_URL, QUEUE_PREFIX, TARGET_URL, SECRET, CONCURRENCY
import Bull from 'bull';
import { request } from 'undici';
import { signatureHeader } from '../../dist/webhooks/signature.js';

const queue = new Bull('reference-webhooks', process.env.REDIS_URL, { prefix: process.env.QUEUE_PREFIX });
const { TARGET_URL, SECRET } = process.env;

queue.process('deliver', Number(process.env.CONCURRENCY), async (job) => {
  const { id, body } = job.data;
  const { statusCode, body: answer } = await request(TARGET_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-signature': signatureHeader([SECRET], Math.floor(Date.now() / 1000), body),
      'x-service-event-id': id,
      'x-service-delivery-attempt': String(job.attemptsMade + 1),
    },
    body,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  await answer.dump();
  if (statusCode < 200 || statusCode >= 300) throw new Error(`receiver answered ${statusCode}`);
});
await queue.isReady();
process.send?.('ready');

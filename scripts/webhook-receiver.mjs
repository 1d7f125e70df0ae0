#!/usr/bin/env node
// A webhook receiver to try the service with (docs/tour.sh starts one):
//
//   node scripts/webhook-receiver.mjs --port 4000 --secret whsec_…
//
// Listens on 127.0.0.1, verifies each delivery's `x-service-signature` with the service's own
// signature code (src/webhooks/signature.ts, as `npm start` or `npm run build` compiled it into
// dist/), prints each event on one line and answers 200; a delivery whose signature does not verify
// is printed as rejected and answered 400 (the service then retries it). The service delivers to
// http:// and loopback addresses only when started with WEBHOOK_ALLOW_PRIVATE=true.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({ options: { port: { type: 'string', default: '4000' }, secret: { type: 'string' } } });
if (!options.secret) {
  console.error("usage: node scripts/webhook-receiver.mjs --port 4000 --secret whsec_… (the endpoint's signing secret)");
  process.exit(2);
}

let signature;
try {
  signature = await import('../dist/webhooks/signature.js');
} catch {
  console.error('webhook-receiver: dist/ is not built; run `npm run build` (npm start builds it too)');
  process.exit(1);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    // The raw bytes, exactly as received: a re-serialized body would not verify.
    const raw = Buffer.concat(chunks);
    try {
      signature.verify(raw, req.headers[signature.SIGNATURE_HEADER], options.secret);
    } catch (err) {
      console.log(`webhook rejected: ${err.message}`);
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end(err.message);
    }
    const event = JSON.parse(raw.toString('utf8'));
    const attempt = req.headers['x-service-delivery-attempt'];
    console.log(`webhook received: ${event.event} ${event.id} (signature verified, attempt ${attempt}) ${JSON.stringify(event.data)}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
});

server.listen(Number(options.port), '127.0.0.1', () => console.log(`webhook receiver listening on http://127.0.0.1:${server.address().port}/`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));

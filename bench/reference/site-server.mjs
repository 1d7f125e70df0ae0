// The bare reference for the serving loads: Fastify answering the very bytes the service sends
// (fetched from it at start) from memory, with the same Content-Type, Cache-Control, ETag and
// Content-Encoding — no Host lookup, no manifest, no conditional or range logic, no log line, no
// metrics, no analytics, no metering.
//   env: PORT, SERVICE_URL, HTML_HOST, JS_HOST, JS_PATH, LANDING_HOST
import Fastify from 'fastify';
import { request } from 'node:http';

/** One GET of the service with this Host, as raw bytes and headers (nothing decompressed). */
function fetchRaw(host, path, headers = {}) {
  const { hostname, port } = new URL(process.env.SERVICE_URL);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path, headers: { host, ...headers } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const KEPT = ['content-type', 'cache-control', 'etag', 'content-encoding', 'vary', 'x-content-type-options'];
// Asked as the bench's client asks (a browser's User-Agent, gzip accepted): the very bytes the service answers it.
const browser = { 'user-agent': process.env.USER_AGENT ?? 'Mozilla/5.0', 'accept-encoding': 'gzip' };
const answers = {
  '/page': await fetchRaw(process.env.HTML_HOST, '/', { ...browser, accept: 'text/html' }),
  '/script': await fetchRaw(process.env.JS_HOST, process.env.JS_PATH, { ...browser, accept: '*/*' }),
  '/landing': await fetchRaw(process.env.LANDING_HOST, '/', { ...browser, accept: 'text/html' }),
};
const app = Fastify({ logger: false });
for (const [path, answer] of Object.entries(answers)) {
  if (answer.status !== 200) throw new Error(`the service answered ${path} with ${answer.status}`);
  const headers = Object.fromEntries(KEPT.filter((k) => answer.headers[k] !== undefined).map((k) => [k, answer.headers[k]]));
  app.get(path, (_req, reply) => reply.headers(headers).send(answer.body));
}
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.({ ready: true, bytes: Object.fromEntries(Object.entries(answers).map(([k, v]) => [k, v.body.length])) });

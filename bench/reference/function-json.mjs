// Load 13's ceiling: a bare node:http server answering the function's JSON itself — no second hop, no routing, no
// limits, logs or meters. No Node front before a function can answer faster than Node answers on its own: where this
// reads far below `deno serve`, a target against `deno serve` measures Node's HTTP server against Deno's.
//   env: PORT
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  const body = JSON.stringify({ ok: true, path: new URL(req.url ?? '/', 'http://localhost').pathname, service: 'bench' });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ ready: true }));

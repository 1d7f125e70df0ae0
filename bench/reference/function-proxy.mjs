// Load 13's floor: the least any Node front can do before a function — a bare node:http server passing each request
// to the same module under `deno serve` over a keep-alive connection and piping the answer back, with no Host
// routing, no headers filtered, no limits, no logs or meters. It says how much of the ratio against bare `deno serve`
// is the second hop itself (a Node HTTP server and client on the path) and how much is the platform's own work.
//   env: PORT, UPSTREAM (http://127.0.0.1:<deno serve's port>)
import { Agent, createServer, request } from 'node:http';

const upstream = new URL(process.env.UPSTREAM);
const agent = new Agent({ keepAlive: true });
const server = createServer((req, res) => {
  const proxied = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  proxied.on('error', () => {
    res.writeHead(502).end();
  });
  req.pipe(proxied);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ ready: true }));

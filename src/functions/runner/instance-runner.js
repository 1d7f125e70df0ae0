/* global Deno */
// The runner of one function instance: our code, run by Deno inside the instance (docs/functions.md). It reads its
// settings from the first line of stdin, serves HTTP on a Unix socket only the platform reaches, imports the
// deployment's entry and calls its `default.fetch(request, env, ctx)` for each request. It speaks to the platform in
// JSON lines on stdout, each carrying a nonce the deployment's code never sees (so what the code prints can never
// pass for the runner's word). Plain JavaScript, no imports: Deno loads it as it is, and nothing here is compiled
// for Node.

const stdout = Deno.stdout;
const encoder = new TextEncoder();
const MAX_MESSAGE = 8 * 1024;

/** The first line of stdin (the rest stays open: its end means the platform is gone). */
async function readSettings() {
  const reader = Deno.stdin.readable.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    const newline = text.indexOf('\n');
    if (newline >= 0) {
      // Once the platform closes stdin (it died, or killed us without a word), stop.
      void (async () => {
        while (!(await reader.read().catch(() => ({ done: true }))).done);
        Deno.exit(0);
      })();
      return JSON.parse(text.slice(0, newline));
    }
  }
  throw new Error('no settings on stdin');
}

const settings = await readSettings();
const { nonce, entry, socket, egress, env, timeoutMs, codePrefixes } = settings;

function writeLine(value) {
  const bytes = encoder.encode(JSON.stringify(value) + '\n');
  for (let written = 0; written < bytes.length;) written += stdout.writeSync(bytes.subarray(written));
}

/** Paths as the deployment knows them: its files from `/`, not where this node keeps them. */
function clean(text) {
  return codePrefixes.reduce((cleaned, prefix) => cleaned.replaceAll(prefix, '/'), String(text));
}

function format(args) {
  const text = args.map((arg) => (typeof arg === 'string' ? arg : Deno.inspect(arg, { depth: 4, colors: false }))).join(' ');
  const cleaned = clean(text);
  return cleaned.length > MAX_MESSAGE ? cleaned.slice(0, MAX_MESSAGE) + '…' : cleaned;
}

function log(level, args) {
  writeLine({ nonce, t: 'log', level, message: format(args) });
}

function errorText(error) {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : Deno.inspect(error);
}

// console.* becomes structured lines the platform collects (level + message).
for (const [method, level] of [
  ['log', 'info'],
  ['info', 'info'],
  ['debug', 'debug'],
  ['trace', 'debug'],
  ['warn', 'warn'],
  ['error', 'error'],
]) {
  console[method] = (...args) => log(level, args);
}

// An error nobody catches is logged with its stack, and the instance goes on (as on Workers).
globalThis.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  log('error', [`Uncaught (in promise) ${errorText(event.reason)}`]);
});
globalThis.addEventListener('error', (event) => {
  event.preventDefault();
  log('error', [`Uncaught ${errorText(event.error ?? event.message)}`]);
});

// Outbound requests: this instance has no network of its own (bubblewrap: no route at all; without it, Deno's
// --allow-net names only the egress). Every fetch goes to the platform's egress, which resolves the target, checks
// the address and makes the request; the target travels in a header because Deno checks --allow-net against the
// URL's host even through a proxy, so one fixed name is all the flags allow.
const nativeFetch = globalThis.fetch;
const egressClient = egress.kind === 'unix' ? Deno.createHttpClient({ proxy: { transport: 'unix', path: egress.path } }) : undefined;
const egressUrl = egress.kind === 'unix' ? 'http://egress.invalid/' : egress.url;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function throughEgress(request) {
  const headers = new Headers(request.headers);
  headers.set('x-platform-egress-url', request.url);
  const response = await nativeFetch(egressUrl, {
    method: request.method,
    headers,
    body: request.body,
    redirect: 'manual',
    signal: request.signal,
    client: egressClient,
  });
  const failed = response.headers.get('x-platform-egress-error');
  if (failed !== null) {
    await response.body?.cancel();
    throw new TypeError(`fetch failed: ${failed}`);
  }
  return response;
}

async function egressFetch(input, init) {
  let request = new Request(input, init);
  const mode = request.redirect;
  const scheme = new URL(request.url).protocol;
  if (scheme === 'data:' || scheme === 'blob:') return nativeFetch(request);
  if (scheme !== 'http:' && scheme !== 'https:') throw new TypeError(`fetch: unsupported URL scheme ${scheme}`);
  for (let hops = 0; ; hops++) {
    // A body is sent again after a 307/308: keep a copy while a redirect may come.
    const again = mode === 'follow' && request.body !== null ? request.clone() : undefined;
    const response = await throughEgress(request);
    const location = response.headers.get('location');
    if (mode === 'manual' || !REDIRECTS.has(response.status) || location === null) {
      Object.defineProperties(response, { url: { value: request.url }, redirected: { value: hops > 0 } });
      return response;
    }
    await response.body?.cancel();
    if (mode === 'error') throw new TypeError(`fetch: redirected to ${location} (redirect: "error")`);
    if (hops >= 20) throw new TypeError('fetch: too many redirects');
    const url = new URL(location, request.url);
    const keepsBody = response.status === 307 || response.status === 308;
    const method = !keepsBody && (response.status === 303 || request.method === 'POST') && request.method !== 'HEAD' ? 'GET' : request.method;
    const headers = new Headers((again ?? request).headers);
    if (!keepsBody) for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(name);
    if (url.origin !== new URL(request.url).origin) headers.delete('authorization');
    request = new Request(url, { method, headers, body: keepsBody ? (again?.body ?? null) : null, redirect: mode, signal: request.signal });
  }
}
globalThis.fetch = egressFetch;

// In-flight requests and ctx.waitUntil work, so a drain lets both finish.
const pending = new Set();
function track(promise) {
  pending.add(promise);
  void promise.finally(() => pending.delete(promise));
}

function runnerError(status) {
  return new Response(null, { status, headers: { 'x-platform-runner-error': nonce } });
}

let handler;
let draining = false;

async function serve(request, server) {
  const control = request.headers.get('x-platform-control');
  if (control !== null) {
    if (request.headers.get('x-platform-nonce') !== nonce) return runnerError(403);
    if (control === 'drain' && !draining) {
      draining = true;
      // Answer first, then stop taking requests, let the in-flight ones and waitUntil finish, and exit.
      setTimeout(async () => {
        await server.shutdown();
        await Promise.allSettled([...pending]);
        Deno.exit(0);
      }, 0);
    }
    return new Response(control === 'ping' ? 'pong' : 'ok');
  }
  const url = request.headers.get('x-platform-url');
  const headers = new Headers();
  // The platform's connection to this socket is its own (keep-alive): only the visitor's headers pass.
  for (const [name, value] of request.headers)
    if (!name.startsWith('x-platform-') && name !== 'connection' && name !== 'keep-alive') headers.append(name, value);
  const visitorRequest = new Request(url, { method: request.method, headers, body: request.body, signal: request.signal, redirect: 'manual' });
  const deadline = Date.now() + timeoutMs;
  const ctx = {
    waitUntil(promise) {
      // Kept working after the answer, within the request's time.
      const left = Math.max(0, deadline - Date.now());
      let timer;
      const bounded = Promise.race([
        Promise.resolve(promise).catch((error) => log('error', [`Uncaught (in waitUntil) ${errorText(error)}`])),
        new Promise((resolve) => (timer = setTimeout(resolve, left))),
      ]).finally(() => clearTimeout(timer));
      track(bounded);
    },
    passThroughOnException() {},
  };
  let answer;
  try {
    answer = await handler.fetch(visitorRequest, env, ctx);
  } catch (error) {
    log('error', [`Uncaught ${errorText(error)}`]);
    return runnerError(502);
  }
  if (!(answer instanceof Response)) {
    log('error', [`fetch() answered ${Deno.inspect(answer, { depth: 1 })}, not a Response`]);
    return runnerError(502);
  }
  return answer;
}

const server = Deno.serve(
  {
    path: socket,
    onListen() {},
    onError(error) {
      log('error', [`Uncaught ${errorText(error)}`]);
      return runnerError(502);
    },
  },
  (request) => {
    const answer = serve(request, server);
    track(answer);
    return answer;
  },
);
// The socket is listening: nothing of it is needed any more (no more listening, no writing anywhere).
Deno.permissions.revokeSync({ name: 'write', path: socket });
Deno.permissions.revokeSync({ name: 'read', path: socket });
Deno.permissions.revokeSync({ name: 'net', host: `unix:${socket}` });

try {
  const module = await import(entry);
  handler = module.default;
  if (handler === null || (typeof handler !== 'object' && typeof handler !== 'function') || typeof handler.fetch !== 'function') {
    throw new Error('the entry has no default export with a fetch(request, env, ctx) method (export default { fetch })');
  }
} catch (error) {
  writeLine({ nonce, t: 'load_error', message: clean(error instanceof Error ? error.message : String(error)) });
  Deno.exit(1);
}
writeLine({ nonce, t: 'ready' });

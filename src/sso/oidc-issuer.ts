import { request as httpsRequest } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import * as client from 'openid-client';
import { guardedLookup, isBlockedAddress, resolveAll } from '../webhooks/url-guard.js';
import { SsoError } from './sso.errors.js';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const DISCOVERY_TIMEOUT_S = 10;
/** Bytes of a provider's answer read at most (discovery documents, keys and tokens are a few KiB). */
const ANSWER_LIMIT = 1024 * 1024;

/**
 * The issuer URL as a URL, refused unless https — plain http only for a provider on this machine,
 * and only when the operator allows it (`SSO_ALLOW_INSECURE_LOOPBACK`, for tests and development),
 * so no client secret or token ever crosses a network in clear.
 */
export function issuerUrl(issuer: string, allowInsecureLoopback: boolean): { url: URL; loopbackHttp: boolean } {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw SsoError.issuerInsecure();
  }
  if (url.protocol === 'https:' && !url.username && !url.password) return { url, loopbackHttp: false };
  if (allowInsecureLoopback && url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return { url, loopbackHttp: true };
  throw SsoError.issuerInsecure();
}

/**
 * Refuses an issuer whose host is (or resolves to) a private, loopback, link-local or reserved
 * address — the webhooks' SSRF guard — unless the operator allows a provider on this machine.
 */
export async function checkIssuerHost(url: URL, allowInsecureLoopback: boolean): Promise<void> {
  if (allowInsecureLoopback) return;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await resolveAll(url.hostname);
  } catch {
    throw SsoError.discoveryFailed();
  }
  if (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address))) throw SsoError.issuerPrivate();
}

/**
 * The provider's configuration for this client, read from `<issuer>/.well-known/openid-configuration`
 * (openid-client checks that the document names this very issuer). The client authenticates with
 * client_secret_basic, the OpenID Connect default every common provider supports. Unless a provider
 * on this machine is allowed, every request to the provider (discovery, keys, token, userinfo)
 * connects only to addresses the SSRF guard accepted at connect time (no DNS rebinding). A failure
 * answers one generic message: the network's own error would tell a prober what is behind an address.
 */
export async function discoverIssuer(issuer: string, clientId: string, clientSecret: string, allowInsecureLoopback: boolean): Promise<client.Configuration> {
  const { url, loopbackHttp } = issuerUrl(issuer, allowInsecureLoopback);
  await checkIssuerHost(url, allowInsecureLoopback);
  try {
    return await client.discovery(url, clientId, undefined, client.ClientSecretBasic(clientSecret), {
      timeout: DISCOVERY_TIMEOUT_S,
      // Only ever for http://127.0.0.1 and the like (issuerUrl refused any other http issuer).
      execute: loopbackHttp ? [client.allowInsecureRequests] : [],
      ...(allowInsecureLoopback ? {} : { [client.customFetch]: guardedFetch }),
    });
  } catch {
    throw SsoError.discoveryFailed();
  }
}

/** fetch for the provider's requests over node:https, whose sockets connect only to addresses the SSRF guard accepts. */
export function guardedFetch(url: string, options: client.CustomFetchOptions): Promise<Response> {
  const target = new URL(url);
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  if (target.protocol !== 'https:' || (isIP(literal) && isBlockedAddress(literal))) return Promise.reject(new Error('refused provider address'));
  const body = options.body;
  const payload =
    body == null
      ? undefined
      : typeof body === 'string' || body instanceof URLSearchParams
        ? String(body)
        : body instanceof ReadableStream
          ? null
          : Buffer.from(body as ArrayBuffer);
  if (payload === null) return Promise.reject(new Error('streamed bodies are not sent'));
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      target,
      { method: options.method, headers: options.headers, lookup: guardedLookup(false) as never, signal: options.signal },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > ANSWER_LIMIT) req.destroy(new Error('answer too large'));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const status = res.statusCode ?? 502;
          const noBody = status === 204 || status === 304 || options.method === 'HEAD';
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers: headersOf(res.headers) }));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function headersOf(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

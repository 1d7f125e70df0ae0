import * as client from 'openid-client';
import { SsoError } from './sso.errors.js';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const DISCOVERY_TIMEOUT_S = 10;

/**
 * The issuer URL as a URL, refused unless https — plain http only for a provider on this machine
 * (a test or development provider), so no client secret or token ever crosses a network in clear.
 */
export function issuerUrl(issuer: string): { url: URL; loopbackHttp: boolean } {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw SsoError.issuerInsecure();
  }
  if (url.protocol === 'https:') return { url, loopbackHttp: false };
  if (url.protocol === 'http:' && LOOPBACK.has(url.hostname)) return { url, loopbackHttp: true };
  throw SsoError.issuerInsecure();
}

/**
 * The provider's configuration for this client, read from `<issuer>/.well-known/openid-configuration`
 * (openid-client checks that the document names this very issuer). The client authenticates with
 * client_secret_basic, the OpenID Connect default every common provider supports.
 */
export async function discoverIssuer(issuer: string, clientId: string, clientSecret: string): Promise<client.Configuration> {
  const { url, loopbackHttp } = issuerUrl(issuer);
  try {
    return await client.discovery(url, clientId, undefined, client.ClientSecretBasic(clientSecret), {
      timeout: DISCOVERY_TIMEOUT_S,
      // Only ever for http://127.0.0.1 and the like (issuerUrl refused any other http issuer).
      execute: loopbackHttp ? [client.allowInsecureRequests] : [],
    });
  } catch (err) {
    throw SsoError.discoveryFailed(discoveryProblem(err));
  }
}

function discoveryProblem(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const cause = err.cause instanceof Error ? err.cause : undefined;
  if (err.name === 'TimeoutError' || cause?.name === 'TimeoutError') return `no answer within ${DISCOVERY_TIMEOUT_S} seconds`;
  if (err instanceof client.ClientError) {
    if (err.code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') return 'its document names another issuer';
    if (err.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') return 'it answered with an error status';
    return err.message;
  }
  // fetch's TypeError ("fetch failed") hides the network error in its cause.
  return cause?.message ? `${err.message} (${cause.message})` : err.message;
}

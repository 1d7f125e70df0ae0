import type { FastifyRequest } from 'fastify';

/** Who is calling: put on the request by the bearer guard (src/auth/), read with @CurrentPrincipal(). */
export interface Principal {
  accountId: string;
  /** The API key's or the OAuth access token's id (a portal session: `portal`). */
  credentialId: string;
  /** `portal_session`: a developer signed in to the portal, acting through the same services. */
  kind: 'api_key' | 'access_token' | 'portal_session';
  scopes: string[];
}

/** A request once the bearer guard has run: `principal` is set on routes that are not @Public(). */
export type RequestWithPrincipal = FastifyRequest & { principal?: Principal };

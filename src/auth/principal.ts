/** Who is calling: put on the request by the bearer guard, read with @CurrentPrincipal(). */
export interface Principal {
  accountId: string;
  /** The API key's or the OAuth access token's id (a portal session: `portal`). */
  credentialId: string;
  /** `portal_session`: a developer signed in to the portal, acting through the same services. */
  kind: 'api_key' | 'access_token' | 'portal_session';
  scopes: string[];
}

/** Who is calling: put on the request by the bearer guard, read with @CurrentPrincipal(). */
export interface Principal {
  accountId: string;
  /** The API key's or the OAuth access token's id. */
  credentialId: string;
  kind: 'api_key' | 'access_token';
  scopes: string[];
}

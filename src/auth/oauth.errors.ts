import OAuth2Server from '@node-oauth/oauth2-server';
import { PlatformError } from '../common/errors/platform-error.js';

/** RFC 6749 §5.2 error codes this server answers. */
export type OAuthErrorName =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'server_error';

const STATUS: Record<OAuthErrorName, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  server_error: 503,
};

/**
 * An RFC 6749 §5.2 error: its `error` string takes the place of the envelope's `error: true`, with
 * `error_description`; `code` and `message` stay, as everywhere.
 */
export class OAuthError extends PlatformError<OAuthErrorName> {
  protected readonly statuses = STATUS;

  constructor(name: OAuthErrorName, description: string, usedBasicAuth = false) {
    super(name, description, {
      body: { error: name, error_description: description },
      // RFC 6749 §5.2: a failed HTTP Basic client authentication answers 401 with a challenge.
      headers: name === 'invalid_client' && usedBasicAuth ? { 'www-authenticate': 'Basic realm="oauth"' } : {},
    });
  }

  /** Whatever the OAuth library threw, as our error; its internal failures never show their details. */
  static from(err: unknown, usedBasicAuth: boolean): OAuthError {
    if (err instanceof OAuthError) return err;
    const e = err as OAuth2Server.OAuthError;
    const name = e?.name as OAuthErrorName;
    if (typeof e?.code === 'number' && e.code < 500 && name in STATUS) return new OAuthError(name, e.message, usedBasicAuth);
    return new OAuthError('server_error', 'Internal error; try again later');
  }
}

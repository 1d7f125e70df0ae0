import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const AuthErrorCode = errorCodes({
  MissingCredential: ['missing_credential', 401],
  InvalidCredential: ['invalid_credential', 401],
  MissingScope: ['missing_scope', 403],
  RoleForbids: ['role_forbids', 403],
  ScopeNotGrantable: ['scope_not_grantable', 403],
  TokenCannotMintCredentials: ['token_cannot_create_credentials', 403],
  BoundToApp: ['credential_bound_to_app', 403],
  KeyNotFound: ['api_key_not_found', 404],
  ServiceAccountNotFound: ['service_account_not_found', 404],
});
export type AuthErrorCode = ErrorCode<typeof AuthErrorCode>;

/** Authentication and authorization failures. 401s carry the RFC 6750 challenge. */
export class AuthError extends PlatformError.of(AuthErrorCode) {
  /** 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3): `error="invalid_token"` when a token was sent. */
  static unauthenticated(tokenSent: boolean, realm = 'platform', message?: string): AuthError {
    const challenge = tokenSent ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`;
    return new AuthError(
      tokenSent ? AuthErrorCode.InvalidCredential : AuthErrorCode.MissingCredential,
      message ?? (tokenSent ? 'Invalid, expired or revoked credential' : 'Missing credential: send Authorization: Bearer <API key or access token>'),
      { headers: { 'www-authenticate': challenge } },
    );
  }

  static missingScope(scopes: string[]): AuthError {
    return new AuthError(AuthErrorCode.MissingScope, `This credential lacks the scope ${scopes.join(', ')}`);
  }

  /** The member a credential acts for has a role that does not allow this (`role` null: the member was removed). */
  static roleForbids(role: string | null, what: string[]): AuthError {
    return new AuthError(
      AuthErrorCode.RoleForbids,
      role === null
        ? `The member who created this credential is no longer in the account: it may not use ${what.join(', ')}`
        : `The role ${role} does not allow ${what.join(', ')}`,
      { body: { role } },
    );
  }

  static notGrantable(scopes: string[]): AuthError {
    return new AuthError(AuthErrorCode.ScopeNotGrantable, `Cannot grant scopes this credential does not hold: ${scopes.join(', ')}`);
  }

  static tokenCannotMintCredentials(): AuthError {
    return new AuthError(
      AuthErrorCode.TokenCannotMintCredentials,
      'An OAuth access token cannot create API keys or service accounts (they would outlive the token); use an API key with keys:write',
    );
  }

  /** A credential bound to one app (a deployment's PLATFORM_TOKEN) named another. */
  static boundToApp(appId: string): AuthError {
    return new AuthError(AuthErrorCode.BoundToApp, `This credential acts for the app ${appId} only`, { body: { appId } });
  }

  static keyNotFound(id: string): AuthError {
    return new AuthError(AuthErrorCode.KeyNotFound, `API key ${id} not found`);
  }

  static serviceAccountNotFound(id: string): AuthError {
    return new AuthError(AuthErrorCode.ServiceAccountNotFound, `Service account ${id} not found`);
  }
}

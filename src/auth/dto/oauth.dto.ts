import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

/** RFC 6749 §4.4.2 token request (form-encoded or JSON). Client credentials may come in HTTP Basic instead. Unknown parameters are ignored. */
export class TokenRequestDto {
  /** @example client_credentials */
  @IsString()
  grant_type: string;

  /** Space-separated subset of the service account's scopes; default: all of them. @example apps:read */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  scope?: string;

  @IsOptional()
  @IsString()
  client_id?: string;

  @IsOptional()
  @IsString()
  client_secret?: string;
}

export class TokenResponseDto {
  /** @example at_9XkLmN2pQ4rS6tU8vW0xY2zA4bC6dE8fG0hJ2kL4 */
  access_token: string;
  /** @example Bearer */
  token_type: 'Bearer';
  /** Seconds until it expires. @example 3600 */
  expires_in: number;
  /** @example apps:read deployments:write */
  scope: string;
}

/** RFC 6749 §5.2 error, with this API's `code` and `message` beside the OAuth fields. */
export class OAuthErrorDto {
  /** @example invalid_client */
  error: string;
  /** @example Invalid client: client is invalid */
  error_description: string;
  /** The HTTP status. @example 401 */
  code: number;
  /** @example Invalid client: client is invalid */
  message: string;
}

/** RFC 7662 introspection and RFC 7009 revocation requests. */
export class TokenParamDto {
  /** The access token (or API key, for introspection) to look at. */
  @IsString()
  @MaxLength(200)
  token: string;

  /** Optional hint, ignored. @example access_token */
  @IsOptional()
  @IsIn(['access_token', 'refresh_token'])
  token_type_hint?: string;
}

export class IntrospectionDto {
  /** @example true */
  active: boolean;
  /** @example apps:read */
  scope?: string;
  /** The service account's client id. */
  client_id?: string;
  /** @example Bearer */
  token_type?: string;
  /** Expiry, seconds since the epoch. */
  exp?: number;
  /** Issued at, seconds since the epoch. */
  iat?: number;
  /** The account that owns the token. */
  sub?: string;
}

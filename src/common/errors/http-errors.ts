import { HttpException, HttpStatus } from '@nestjs/common';

export interface HttpErrorExtras {
  /** Response headers to set (Retry-After, WWW-Authenticate...). */
  headers?: Record<string, string>;
  /** Fields merged into the error body, e.g. the RFC 6749 `error` / `error_description` of OAuth. */
  body?: Record<string, unknown>;
}

/** An HttpException that also sets headers and extra body fields (the error filter applies both). */
export class HttpErrorWithExtras extends HttpException {
  readonly headers: Record<string, string>;
  readonly extraBody: Record<string, unknown>;

  constructor(status: number, message: string, extras: HttpErrorExtras = {}) {
    super({ message }, status);
    this.headers = extras.headers ?? {};
    this.extraBody = extras.body ?? {};
  }
}

/** 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3): `error="invalid_token"` when a token was sent. */
export class BearerUnauthorizedException extends HttpErrorWithExtras {
  constructor(message: string, tokenSent: boolean, realm = 'platform') {
    const challenge = tokenSent ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`;
    super(HttpStatus.UNAUTHORIZED, message, { headers: { 'www-authenticate': challenge } });
  }
}

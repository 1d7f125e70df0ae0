import { HttpException, HttpStatus } from '@nestjs/common';

/** An HttpException that also sets response headers (the error filter applies them). */
export class HttpErrorWithHeaders extends HttpException {
  constructor(status: number, message: string, readonly headers: Record<string, string>) {
    super({ message }, status);
  }
}

/** 401 with `WWW-Authenticate: Bearer` (RFC 6750 §3): `error="invalid_token"` when a token was sent. */
export class BearerUnauthorizedException extends HttpErrorWithHeaders {
  constructor(message: string, tokenSent: boolean, realm = 'platform') {
    const challenge = tokenSent ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`;
    super(HttpStatus.UNAUTHORIZED, message, { 'www-authenticate': challenge });
  }
}

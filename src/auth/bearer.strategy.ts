import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { IncomingHttpHeaders } from 'node:http';
import { Strategy, type VerifyFunction } from 'passport-http-bearer';
import { CredentialsService } from './credentials.service.js';
import { Principal } from '../common/request-context/principal.js';

/**
 * passport-http-bearer reads a token from the Authorization header, and also from `access_token` in
 * the body or the query string — where it ends up in proxy logs and Referer headers (and an array
 * there broke it). This one sees the header only.
 */
class HeaderOnlyBearerStrategy extends Strategy<VerifyFunction> {
  override authenticate(req: { headers?: IncomingHttpHeaders }, options?: object): void {
    super.authenticate({ headers: { authorization: req.headers?.authorization } } as never, options);
  }
}

/** Authorization: Bearer … → CredentialsService says who it is. */
@Injectable()
export class BearerStrategy extends PassportStrategy(HeaderOnlyBearerStrategy, 'bearer') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.credentials.verify(token)) ?? false;
  }
}

import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { CredentialsService } from './credentials.service.js';
import { Principal } from './principal.js';

/** passport-http-bearer: reads `Authorization: Bearer …` and asks CredentialsService who it is. */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly credentials: CredentialsService) {
    super();
  }

  async validate(token: string): Promise<Principal | false> {
    return (await this.credentials.verify(token)) ?? false;
  }
}

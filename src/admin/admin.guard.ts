import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BearerUnauthorizedException } from '../common/errors/http-errors.js';
import { AdminTokenService } from './admin-token.service.js';

/** Lets a request through only with `Authorization: Bearer <admin token>`. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly adminToken: AdminTokenService) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (match && this.adminToken.matches(match[1])) return true;
    throw new BearerUnauthorizedException(
      match ? 'Invalid admin token' : 'Missing admin token: send Authorization: Bearer <ADMIN_TOKEN>',
      Boolean(match),
      'admin',
    );
  }
}

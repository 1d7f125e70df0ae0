import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-errors.decorator.js';
import type { Principal, RequestWithPrincipal } from './principal.js';
import type { Scope } from './scopes.js';

export const REQUIRED_SCOPES = 'requiredScopes';

/**
 * The scopes a route needs (all of them; ScopesGuard in src/auth/ checks them). Also documents the
 * bearer scheme and the 401/403 answers in the OpenAPI document.
 */
export const Scopes = (...scopes: Scope[]) => applyDecorators(SetMetadata(REQUIRED_SCOPES, scopes), ApiBearerAuth('bearer'), ApiErrors(401, 403, 429));

/** The authenticated caller of this request. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without the bearer guard');
  return principal;
});

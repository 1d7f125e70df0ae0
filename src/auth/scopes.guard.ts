import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal, RequestWithPrincipal } from '../common/request-context/principal.js';
import { REQUIRED_SCOPES } from '../common/request-context/request-context.decorators.js';
import { AuthError } from './auth.errors.js';
import { hasScope, Scope } from '../common/request-context/scopes.js';

/** Global, after authentication: the credential must hold every scope the route's @Scopes names. */
@Injectable()
export class ScopesGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const needed = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, [context.getHandler(), context.getClass()]) ?? [];
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (principal) requireScopes(principal, needed);
    return true;
  }
}

/** 403 `missing_scope` naming every scope of `needed` the principal lacks. */
export function requireScopes(principal: Principal, needed: readonly Scope[]): void {
  const missing = needed.filter((scope) => !hasScope(principal.scopes, scope));
  if (missing.length) throw AuthError.missingScope(missing);
}

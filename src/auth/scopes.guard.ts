import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal, RequestWithPrincipal } from '../common/request-context/principal.js';
import { REQUIRED_SCOPES } from '../common/request-context/request-context.decorators.js';
import { AuthError } from './auth.errors.js';
import { hasScope, Scope } from '../common/request-context/scopes.js';
import { roleAllows } from '../common/request-context/roles.js';

/**
 * Global, after authentication: the credential must hold every scope the route's @Scopes names,
 * and the member it acts for (a portal session's, an API key's creator) must have a role that
 * allows them — a key keeps its scopes, but a demoted member's keys lose what the new role lacks.
 */
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

/**
 * 403 `missing_scope` naming every scope of `needed` the principal lacks; then 403 `role_forbids` naming every one
 * the role of the member it acts for does not allow (a member with no role left: none).
 */
export function requireScopes(principal: Principal, needed: readonly Scope[]): void {
  if (needed.length === 0) return;
  const missing = needed.filter((scope) => !hasScope(principal.scopes, scope));
  if (missing.length) throw AuthError.missingScope(missing);
  const member = principal.member;
  if (member) {
    const forbidden = needed.filter((scope) => member.role === null || !roleAllows(member.role, scope));
    if (forbidden.length) throw AuthError.roleForbids(member.role, forbidden);
  }
}

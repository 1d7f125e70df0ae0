import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { truncatedIp } from '../client-network.js';
import type { Principal, RequestWithPrincipal } from './principal.js';

/** Who did something, as the audit log records it. */
export interface Actor {
  type: 'member' | 'credential' | 'operator';
  /** The member's id, the API key's or access token's, or `operator`. */
  id: string;
  label: string;
  /** The client's address truncated to its /24 (IPv4) or /48 (IPv6); null when there was no request. */
  ip: string | null;
}

export const OPERATOR_ID = 'operator';

/** The actor of a principal's request from `ip`: a portal session is its member, a key or token the credential. */
export function actorOf(principal: Principal, ip: string | null): Actor {
  const network = ip === null ? null : truncatedIp(ip);
  if (principal.kind === 'portal_session' && principal.member)
    return { type: 'member', id: principal.member.id, label: principal.label ?? principal.member.id, ip: network };
  return { type: 'credential', id: principal.credentialId, label: principal.label ?? principal.credentialId, ip: network };
}

export function operatorActor(ip: string | null): Actor {
  return { type: 'operator', id: OPERATOR_ID, label: 'admin token', ip: ip === null ? null : truncatedIp(ip) };
}

/** The actor of this request: its principal, or the operator on the admin routes. */
export const CurrentActor = createParamDecorator((_data: unknown, ctx: ExecutionContext): Actor => {
  const request = ctx.switchToHttp().getRequest<RequestWithPrincipal>();
  if (request.principal) return actorOf(request.principal, request.ip);
  if (request.operator) return operatorActor(request.ip);
  throw new Error('CurrentActor used on a route with neither the bearer nor the admin guard');
});

import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type Permission, type Role, roleAllows } from '../common/request-context/roles.js';
import { PortalRedirect, type PortalRequest } from './portal-http.js';

const PORTAL_PERMISSION = 'portalPermission';
const BEFORE_MFA = 'portalBeforeMfa';
/** Where a member goes whose account requires MFA until they enrol. */
export const MFA_ENROLMENT_PATH = '/portal/account/mfa';

/** What each permission lets a member do, as the 403 page says it. */
export const PERMISSION_LABELS: Readonly<Record<Permission, string>> = {
  'apps:read': 'seeing apps',
  'apps:write': 'creating and changing apps, landing pages and domains',
  'deployments:write': 'deploying and publishing',
  'users:read': 'seeing app users',
  'users:write': 'erasing app users',
  'webhooks:read': 'seeing webhooks',
  'webhooks:write': 'creating and changing webhooks',
  'events:read': 'seeing events',
  'ai:generate': 'writing pages with AI',
  'analytics:read': 'seeing analytics',
  'billing:read': 'seeing billing',
  'keys:write': "managing the account's API keys and service accounts",
  'keys:own': 'creating API keys of your own',
  'members:read': 'seeing members',
  'members:write': 'inviting, changing and removing members',
  'audit:read': 'seeing the audit log',
  'owners:manage': 'managing owners and the account’s security settings',
  'account:delete': 'deleting the account',
};

/**
 * The permission a signed-in portal route needs, from the one permission table
 * (src/common/request-context/roles.ts): PortalRoleGuard refuses a member whose role lacks it.
 */
export const PortalPermission = (permission: Permission) => SetMetadata(PORTAL_PERMISSION, permission);

/** Routes a member reaches before enrolling in MFA when their account requires it: the enrolment's own. */
export const PortalBeforeMfa = () => SetMetadata(BEFORE_MFA, true);

/** A member's role lacks what the route needs: the 403 page names the role and what it lacks. */
export class PortalRoleRefused extends Error {
  constructor(
    readonly role: Role,
    readonly permission: Permission,
  ) {
    super(`role ${role} lacks ${permission}`);
  }

  get text(): string {
    return `Your role, ${this.role}, does not allow ${PERMISSION_LABELS[this.permission]} (${this.permission}). Ask an owner or an admin of the account if you need it.`;
  }
}

/**
 * After PortalSessionGuard on every signed-in route: a member who must enrol in MFA (the account
 * requires it) goes to enrolment first; then the route's PortalPermission, if any, must be one the
 * member's role allows.
 */
@Injectable()
export class PortalRoleGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const permission = this.reflector.getAllAndOverride<Permission | undefined>(PORTAL_PERMISSION, [context.getHandler(), context.getClass()]);
    const signed = context.switchToHttp().getRequest<PortalRequest>().portalSigned;
    if (signed?.mustEnrolMfa && !this.reflector.getAllAndOverride<boolean | undefined>(BEFORE_MFA, [context.getHandler(), context.getClass()])) {
      throw new PortalRedirect(MFA_ENROLMENT_PATH);
    }
    if (permission && signed && !roleAllows(signed.role, permission)) throw new PortalRoleRefused(signed.role, permission);
    return true;
  }
}

import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../../common/http/public.decorator.js';
import { PortalExceptionFilter } from '../portal-exception.filter.js';
import { PortalRoleGuard } from '../portal-role.guard.js';
import { PortalSessionGuard } from '../portal-session.guard.js';

/** A controller of the portal's pages (not the API: no bearer credential, no Swagger), errors as portal pages. */
export const PortalRoutes = () => applyDecorators(ApiExcludeController(), Public(), Controller('portal'), UseFilters(PortalExceptionFilter));

/**
 * A controller of signed-in pages: the session guard (sign-in redirect, CSRF on every form), then the
 * role guard (the route's PortalPermission, from the one permission table) before each route.
 */
export const SignedInPortalRoutes = () => applyDecorators(PortalRoutes(), UseGuards(PortalSessionGuard, PortalRoleGuard));

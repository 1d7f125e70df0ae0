import { Body, Get, Post, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { roleAllows } from '../../common/request-context/roles.js';
import { PutSsoDto } from '../../sso/dto/sso.dto.js';
import { SsoSettingsService } from '../../sso/sso-settings.service.js';
import { SsoError } from '../../sso/sso.errors.js';
import { FORM, sendPortal, SignedIn } from '../portal-http.js';
import { validateForm } from '../portal-forms.js';
import { chrome, type Form, portalActor, type Signed, text } from '../portal-page.js';
import { PortalPermission } from '../portal-role.guard.js';
import { renderPortal } from '../portal-pages.js';
import { SignedInPortalRoutes } from '../routes/portal-routes.js';

/**
 * The single sign-on settings page: anyone signed in reads them (`members:read`), only an owner
 * changes them (`owners:manage`, as `PUT /v1/sso`). The client secret is never shown back.
 */
@SignedInPortalRoutes()
export class PortalSsoSettingsController {
  constructor(private readonly sso: SsoSettingsService) {}

  @Get('sso/settings')
  @PortalPermission('members:read')
  async page(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    return sendPortal(reply, await this.render(signed));
  }

  @Post('sso/settings')
  @RouteConfig(FORM)
  @PortalPermission('owners:manage')
  async save(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const checked = await validateForm(PutSsoDto, {
      issuer: text(form, 'issuer'),
      clientId: text(form, 'clientId'),
      clientSecret: text(form, 'clientSecret') || undefined,
      domains: text(form, 'domains')
        .toLowerCase()
        .split(/[\s,]+/)
        .filter(Boolean),
      defaultRole: text(form, 'defaultRole'),
      required: form.required === 'on',
    });
    if (!checked.ok) return sendPortal(reply, await this.render(signed, { error: Object.values(checked.errors).join('; ') }, 400));
    try {
      await this.sso.configure(signed.accountId, portalActor(signed), { ...checked.value, required: checked.value.required ?? false });
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      return sendPortal(reply, await this.render(signed, { error: err.message }, err.status));
    }
    return sendPortal(reply, await this.render(signed, { saved: 'Saved: the issuer answered its discovery document.' }));
  }

  /** Checks an SSO domain's TXT record now (as `POST /v1/sso/domains/:domain/verify`): whoever may change members may. */
  @Post('sso/settings/domains/verify')
  @RouteConfig(FORM)
  @PortalPermission('members:write')
  async verifyDomain(@SignedIn() signed: Signed, @Body() form: Form, @Res() reply: FastifyReply): Promise<void> {
    const domain = text(form, 'domain');
    try {
      const settings = await this.sso.verifyDomain(signed.accountId, portalActor(signed), domain);
      const proof = settings.domainProofs.find((d) => d.domain === domain.trim().toLowerCase());
      const saved = proof?.status === 'verified' ? `${proof.domain} is verified: its sign-ins go to your provider.` : undefined;
      const error = proof?.status === 'verified' ? undefined : `${domain} is not verified yet: ${proof?.lastCheck?.message ?? 'no check'}.`;
      return sendPortal(reply, await this.render(signed, { saved, error }));
    } catch (err) {
      if (!(err instanceof SsoError)) throw err;
      return sendPortal(reply, await this.render(signed, { error: err.message }, err.status));
    }
  }

  @Post('sso/settings/delete')
  @RouteConfig(FORM)
  @PortalPermission('owners:manage')
  async remove(@SignedIn() signed: Signed, @Res() reply: FastifyReply): Promise<void> {
    await this.sso.remove(signed.accountId, portalActor(signed));
    return sendPortal(reply, await this.render(signed, { saved: 'Single sign-on is off: members sign in with passwords.' }));
  }

  private async render(signed: Signed, data: Record<string, unknown> = {}, status = 200) {
    return renderPortal(
      'sso-settings',
      {
        ...chrome(signed),
        settings: await this.sso.find(signed.accountId),
        redirectUri: this.sso.redirectUri,
        canManage: roleAllows(signed.role, 'owners:manage'),
        canVerify: roleAllows(signed.role, 'members:write'),
        ...data,
      },
      status,
    );
  }
}

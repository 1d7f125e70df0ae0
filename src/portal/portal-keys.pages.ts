import { Injectable } from '@nestjs/common';
import { CreateApiKeyDto } from '../auth/dto/api-key.dto.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { roleAllows, scopesOfRole } from '../common/request-context/roles.js';
import { FieldErrors, validateForm } from './portal-forms.js';
import { chrome, Form, ignoreNotFound, PortalAnswer, portalActor, portalPrincipal, scopesOf, Signed } from './portal-page.js';
import { PortalHtml, renderPortal } from './portal-pages.js';

/**
 * /portal/api-keys: the same service and DTO as POST /v1/api-keys. A role with `keys:write` sees and
 * revokes every key of the account; one with `keys:own` only the keys its member created. The form
 * offers the scopes the role allows, and the service refuses any other (403 page).
 */
@Injectable()
export class PortalKeysPages {
  constructor(private readonly apiKeys: ApiKeysService) {}

  async list(signed: Signed, notes: { created?: { name: string; key: string }; errors?: FieldErrors; input?: Form } = {}, status = 200): Promise<PortalHtml> {
    const keys = await this.apiKeys.list(signed.accountId, this.ownOnly(signed));
    return renderPortal('api-keys', { ...chrome(signed), keys, scopes: scopesOfRole(signed.role), ...notes }, status);
  }

  /** A new key, shown in this answer only; a name the API refuses: the form again, saying why next to it. */
  async create(signed: Signed, form: Form): Promise<PortalHtml> {
    const name = typeof form.name === 'string' && form.name.trim() ? form.name.trim() : 'portal key';
    const checked = await validateForm(CreateApiKeyDto, { name, scopes: scopesOf(form, ['apps:read']) });
    if (!checked.ok) return this.list(signed, { errors: checked.errors, input: form }, 400);
    const created = await this.apiKeys.createFor(portalPrincipal(signed), portalActor(signed), checked.value.name, checked.value.scopes ?? ['apps:read']);
    return this.list(signed, { created: { name: created.name, key: created.key } });
  }

  async revoke(signed: Signed, keyId: string): Promise<PortalAnswer> {
    await this.apiKeys.revoke(signed.accountId, portalActor(signed), keyId, this.ownOnly(signed)).catch(ignoreNotFound);
    return { redirect: '/portal/api-keys' };
  }

  /** The member whose keys alone this session manages, or undefined: all the account's (`keys:write`). */
  private ownOnly(signed: Signed): string | undefined {
    return roleAllows(signed.role, 'keys:write') ? undefined : signed.memberId;
  }
}

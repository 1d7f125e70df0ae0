import { Injectable } from '@nestjs/common';
import { CreateApiKeyDto } from '../auth/dto/api-key.dto.js';
import { ApiKeysService } from '../auth/api-keys.service.js';
import { SCOPES } from '../common/request-context/scopes.js';
import { FieldErrors, validateForm } from './portal-forms.js';
import { Form, ignoreNotFound, PortalAnswer, portalActor, portalPrincipal, scopesOf, Signed } from './portal-page.js';
import { PortalHtml, renderPortal } from './portal-pages.js';

/** /portal/api-keys: the same service and DTO as POST /v1/api-keys. */
@Injectable()
export class PortalKeysPages {
  constructor(private readonly apiKeys: ApiKeysService) {}

  async list(signed: Signed, notes: { created?: { name: string; key: string }; errors?: FieldErrors; input?: Form } = {}, status = 200): Promise<PortalHtml> {
    return renderPortal('api-keys', { csrf: signed.csrf, keys: await this.apiKeys.list(signed.accountId), scopes: SCOPES, ...notes }, status);
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
    await this.apiKeys.revoke(signed.accountId, portalActor(signed), keyId).catch(ignoreNotFound);
    return { redirect: '/portal/api-keys' };
  }
}

import { Module } from '@nestjs/common';
import { ServerSecrets } from '../config/server-secrets.js';
import { MembersModule } from '../members/members.module.js';
import { MfaModule } from '../mfa/mfa.module.js';
import { SecretBox } from '../webhooks/secret-box.js';
import { DomainsModule } from '../domains/domains.module.js';
import { SsoSettingsService } from './sso-settings.service.js';
import { SsoSignInService } from './sso-sign-in.service.js';
import { SsoController } from './sso.controller.js';
import { SsoRepository } from './sso.repository.js';

/** OpenID Connect single sign-on per account (`/v1/sso`); the portal's sign-in pages are src/portal/sso/. */
@Module({
  imports: [MembersModule, MfaModule, DomainsModule],
  controllers: [SsoController],
  providers: [
    SsoRepository,
    SsoSettingsService,
    SsoSignInService,
    { provide: SecretBox, inject: [ServerSecrets], useFactory: (secrets: ServerSecrets) => new SecretBox(secrets.webhookSecretKey) },
  ],
  exports: [SsoSettingsService, SsoSignInService],
})
export class SsoModule {}

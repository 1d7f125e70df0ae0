import { Module } from '@nestjs/common';
import { ServerSecrets } from '../config/server-secrets.js';
import { SecretBox } from '../webhooks/secret-box.js';
import { MfaRepository } from './mfa.repository.js';
import { MfaService } from './mfa.service.js';

/** Two-factor sign-in for members (TOTP and recovery codes), and the accounts' "MFA required" policy. */
@Module({
  providers: [
    MfaRepository,
    MfaService,
    { provide: SecretBox, inject: [ServerSecrets], useFactory: (secrets: ServerSecrets) => new SecretBox(secrets.webhookSecretKey) },
  ],
  exports: [MfaService],
})
export class MfaModule {}

import { Module } from '@nestjs/common';
import { AppsModule } from '../apps/apps.module.js';
import { AuditModule } from '../audit/audit.module.js';
import { ServerSecrets } from '../config/server-secrets.js';
import { SecretBox } from '../webhooks/secret-box.js';
import { EnvVarsController } from './env-vars.controller.js';
import { EnvVarsRepository } from './env-vars.repository.js';
import { EnvVarsService } from './env-vars.service.js';

/** Environment variables and secrets of app environments, for their server code. */
@Module({
  imports: [AppsModule, AuditModule],
  controllers: [EnvVarsController],
  providers: [
    EnvVarsRepository,
    EnvVarsService,
    // The webhook secrets' scheme and key (WEBHOOK_SECRET_KEY), as MFA secrets use it.
    { provide: SecretBox, inject: [ServerSecrets], useFactory: (secrets: ServerSecrets) => new SecretBox(secrets.webhookSecretKey) },
  ],
  exports: [EnvVarsService],
})
export class EnvVarsModule {}

import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { BearerStrategy } from './bearer.strategy.js';
import { CredentialCache } from './credential-cache.js';
import { CredentialsService } from './credentials.service.js';
import { MemberCredentials } from './member-credentials.service.js';
import { AccessToken } from './entities/access-token.entity.js';
import { ApiKey } from './entities/api-key.entity.js';
import { ServiceAccount } from './entities/service-account.entity.js';
import { OAuthController } from './oauth.controller.js';
import { OAuthService } from './oauth.service.js';
import { ScopesGuard } from './scopes.guard.js';
import { ServiceAccountsController } from './service-accounts.controller.js';
import { ServiceAccountsService } from './service-accounts.service.js';
import { AccessTokensRepository } from './repositories/access-tokens.repository.js';
import { ApiKeysRepository } from './repositories/api-keys.repository.js';
import { ServiceAccountsRepository } from './repositories/service-accounts.repository.js';
import { DeploymentCredentialsRepository } from './repositories/deployment-credentials.repository.js';
import { DeploymentTokens } from './deployment-tokens.js';

/**
 * Credentials (API keys, service accounts, OAuth tokens) and the global guards every request
 * passes, in this order: bearer authentication → rate limit (per credential) → scopes.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey, ServiceAccount, AccessToken]), PassportModule, RateLimitModule],
  controllers: [ApiKeysController, ServiceAccountsController, OAuthController],
  providers: [
    ApiKeysRepository,
    ServiceAccountsRepository,
    AccessTokensRepository,
    DeploymentCredentialsRepository,
    DeploymentTokens,
    CredentialCache,
    CredentialsService,
    ApiKeysService,
    ServiceAccountsService,
    MemberCredentials,
    OAuthService,
    BearerStrategy,
    BearerAuthGuard,
    { provide: APP_GUARD, useExisting: BearerAuthGuard },
    { provide: APP_GUARD, useExisting: RateLimitGuard },
    { provide: APP_GUARD, useClass: ScopesGuard },
  ],
  exports: [ApiKeysService, ServiceAccountsService, MemberCredentials],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { AppsModule } from '../apps/apps.module.js';
import { DeploymentsModule } from '../deployments/deployments.module.js';
import { HostingModule } from '../hosting/hosting.module.js';
import { RateLimitModule } from '../rate-limit/rate-limit.module.js';
import { CustomDomains } from './custom-domains.js';
import { DomainDns } from './domain-dns.js';
import { Domain } from './domain.entity.js';
import { DomainRecheck } from './domain-recheck.service.js';
import { DomainsController } from './domains.controller.js';
import { DomainsRepository } from './domains.repository.js';
import { DomainsService } from './domains.service.js';
import { TlsAsk } from './tls-ask.js';
import { TlsAskController } from './tls-ask.controller.js';

/** Custom domains: the API, their DNS checks (and the worker's re-checks), host → app for serving, and the TLS proxy's `ask`. */
@Module({
  imports: [TypeOrmModule.forFeature([Domain]), AppsModule, DeploymentsModule, HostingModule, PeriodicModule, RateLimitModule],
  controllers: [DomainsController, TlsAskController],
  providers: [DomainsRepository, DomainsService, DomainDns, CustomDomains, DomainRecheck, TlsAsk],
  exports: [DomainsService, CustomDomains, DomainRecheck, DomainDns],
})
export class DomainsModule {}

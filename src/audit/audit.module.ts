import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { AuditEntry } from './audit-entry.entity.js';
import { AuditLogController } from './audit-log.controller.js';
import { AuditLogRepository } from './audit-log.repository.js';
import { AuditLog } from './audit-log.service.js';

/** The audit log (`GET /v1/audit-log`). Global: every module that changes something worth auditing records it. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntry]), PeriodicModule],
  controllers: [AuditLogController],
  providers: [AuditLogRepository, AuditLog],
  exports: [AuditLog],
})
export class AuditModule {}

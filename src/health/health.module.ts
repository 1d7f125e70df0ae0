import { Global, Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { HealthController } from './health.controller.js';
import { WritePaths } from './write-paths.js';

/** Liveness and readiness; WritePaths is global so every background writer reports to readiness. */
@Global()
@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController], providers: [WritePaths], exports: [WritePaths] })
export class HealthModule {}

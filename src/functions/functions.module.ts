import { BeforeApplicationShutdown, Inject, Injectable, Module } from '@nestjs/common';
import { PeriodicModule } from '../common/periodic/periodic.module.js';
import { AppConfig } from '../config/app-config.js';
import { DeploymentTokens } from '../auth/deployment-tokens.js';
import { FunctionLogStore } from './function-logs.js';
import { FunctionLogsRepository } from './function-logs.repository.js';
import { FunctionLogsService } from './function-logs.service.js';
import type { FunctionLogSink } from './functions.types.js';
import { InstancePool } from './instance-pool.js';

/** Where the instances' log lines go (FunctionLogStore: the database). */
export const FUNCTION_LOG_SINK = Symbol('FUNCTION_LOG_SINK');

/** On SIGTERM, before the HTTP server closes: new function requests get 503, those in flight finish within their timeout. */
@Injectable()
class InstancePoolShutdown implements BeforeApplicationShutdown {
  constructor(
    private readonly pool: InstancePool,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    await this.pool.shutdown(this.config.FUNCTIONS_TIMEOUT_MS);
  }
}

/**
 * The API process's function instances (docs/functions.md). Imported where site requests are served (the API role);
 * the pool's start finds Deno and decides the sandbox (bubblewrap where it works), so a missing binary or a
 * FUNCTIONS_SANDBOX=bwrap that cannot run stops the start with the reason.
 */
@Module({
  imports: [PeriodicModule],
  providers: [
    FunctionLogsRepository,
    FunctionLogStore,
    FunctionLogsService,
    { provide: FUNCTION_LOG_SINK, useExisting: FunctionLogStore },
    {
      provide: InstancePool,
      inject: [AppConfig, FUNCTION_LOG_SINK],
      useFactory: (config: AppConfig, logs: FunctionLogSink) =>
        new InstancePool({
          sandbox: config.FUNCTIONS_SANDBOX,
          timeoutMs: config.FUNCTIONS_TIMEOUT_MS,
          memoryMb: config.FUNCTIONS_MEMORY_MB,
          idleMs: config.FUNCTIONS_IDLE_MS,
          maxInstances: config.FUNCTIONS_MAX_INSTANCES,
          maxBodyBytes: config.FUNCTIONS_MAX_BODY_BYTES,
          platformUrl: () => `${config.publicUrl}/v1`,
          logs,
        }),
    },
    InstancePoolShutdown,
    DeploymentTokens,
  ],
  exports: [InstancePool, FUNCTION_LOG_SINK, FunctionLogsService, DeploymentTokens],
})
export class FunctionsModule {}

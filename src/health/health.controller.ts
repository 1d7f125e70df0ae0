import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { QueueService } from '../queue/queue.service.js';
import { RedisConnection } from '../redis/redis.module.js';
import { WritePaths } from './write-paths.js';

@ApiTags('service')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: RedisConnection,
    private readonly queue: QueueService,
    private readonly writePaths: WritePaths,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({
    summary:
      'Readiness: the database (and Redis and its queue connections when configured) answer, and no background write path has been failing for more than 30 s',
    description: 'A 503 names what is down, e.g. `Not ready: analytics writes failing for 42 s`.',
  })
  @ApiOkResponse({ schema: { example: { status: 'ok', info: { database: { status: 'up' } } } } })
  @ApiErrors(503)
  async ready() {
    const checks: HealthIndicatorFunction[] = [() => this.database.pingCheck('database', { timeout: 2000 })];
    if (this.redis.client) checks.push(() => this.pingRedis());
    const stalled = this.writePaths.stalled().map(({ name, failingMs }) => `${name} writes failing for ${Math.round(failingMs / 1000)} s`);
    if (stalled.length > 0) checks.push(() => this.indicators.check('writes').down({ message: stalled.join(', ') }));
    try {
      return await this.health.check(checks);
    } catch (err) {
      const down = Object.keys((err as { response?: { error?: object } }).response?.error ?? {});
      const parts = down.map((key) => (key === 'writes' ? stalled.join(', ') : `${key} unavailable`));
      throw new ServiceUnavailableException({ message: `Not ready: ${parts.join(', ') || 'dependency unavailable'}` });
    }
  }

  private async pingRedis() {
    const check = this.indicators.check('redis');
    try {
      await this.redis.client!.ping();
      // Ready means a job can be queued: the queue's own connections come back after the shared one.
      if (!this.queue.connected()) return check.down({ message: 'the queue is reconnecting' });
      return check.up();
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }
}

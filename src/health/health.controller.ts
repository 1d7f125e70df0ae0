import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheckService, HealthIndicatorFunction, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { Public } from '../common/http/public.decorator.js';
import { RedisConnection } from '../redis/redis.module.js';

@ApiTags('service')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: RedisConnection,
  ) {}

  @Get('live')
  @ApiOperation({ summary: 'Liveness: the process answers' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: the database (and Redis when configured) answer' })
  @ApiOkResponse({ schema: { example: { status: 'ok', info: { database: { status: 'up' } } } } })
  @ApiErrors(503)
  async ready() {
    const checks: HealthIndicatorFunction[] = [() => this.database.pingCheck('database', { timeout: 2000 })];
    if (this.redis.client) checks.push(() => this.pingRedis());
    try {
      return await this.health.check(checks);
    } catch (err) {
      const down = Object.keys((err as { response?: { error?: object } }).response?.error ?? {});
      throw new ServiceUnavailableException({ message: `Not ready: ${down.join(', ') || 'dependency'} unavailable` });
    }
  }

  private async pingRedis() {
    const check = this.indicators.check('redis');
    try {
      await this.redis.client!.ping();
      return check.up();
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }
}

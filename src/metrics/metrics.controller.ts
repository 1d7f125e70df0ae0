import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/http/public.decorator.js';
import { MetricsService } from './metrics.service.js';

@ApiTags('service')
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get()
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiProduces('text/plain')
  @ApiOperation({ summary: 'Prometheus metrics' })
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

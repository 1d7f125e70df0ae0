import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { sseData } from '../ai/sse.js';
import { watchClient } from '../common/http/client-signal.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import type { Principal } from '../common/request-context/principal.js';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import { DeploymentsService } from '../deployments/deployments.service.js';
import { LogLineListDto, LogsQueryDto } from './dto/log-line.dto.js';
import { FunctionLogsService, KEEP_ALIVE } from './function-logs.service.js';

const STREAM_EXAMPLE = 'data: {"at":"2026-11-29T10:00:00.120Z","level":"request","message":"GET /api/notes 200 4ms"}\n\n';

@ApiTags('functions')
@Controller('deployments/:deploymentId/logs')
export class FunctionLogsController {
  constructor(
    private readonly deployments: DeploymentsService,
    private readonly logs: FunctionLogsService,
  ) {}

  @Get()
  @Scopes('apps:read')
  @ApiOperation({
    summary: "A deployment's server code logs",
    description:
      "Its instances' `console.*` output and one `request` line per request (method, path without the query string, status, duration: no address, no header), " +
      'and `system` lines (started, stopped, crashed, lines dropped past 100 a second). The newest 1,000 lines, at most 24 hours old; `limit` (1–1000, default 100) of the newest after `since`, oldest first. ' +
      'With `follow=true`: `text/event-stream`, one `data:` JSON line per log line as it is written (after `since` when given, else from now on), until the client closes; ' +
      'a `: keep-alive` comment line after each 15 s (`FUNCTIONS_LOGS_KEEPALIVE_MS`) without a line.',
  })
  @ApiParam({ name: 'deploymentId', example: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K' })
  @ApiOkResponse({
    description: 'The lines (JSON), or with `follow=true` a server-sent event stream',
    type: LogLineListDto,
    content: { 'text/event-stream': { schema: { type: 'string' }, example: STREAM_EXAMPLE } },
  })
  @ApiErrors(400, 404)
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('deploymentId') deploymentId: string,
    @Query() query: LogsQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.deployments.get(principal.accountId, deploymentId); // 404 unless the account's
    if (query.follow !== 'true') return void (await reply.status(200).send({ data: await this.logs.list(deploymentId, query) }));
    const client = watchClient(reply);
    const lines = this.logs.follow(deploymentId, query, client.signal);
    async function* frames() {
      try {
        // A comment first: Node sends the head with the first bytes, and the client should know it is following.
        yield ': following\n\n';
        // A comment line when idle: proxies cut streams that send nothing for a while.
        for await (const line of lines) yield line === KEEP_ALIVE ? ': keep-alive\n\n' : sseData(line);
      } finally {
        client.dispose();
      }
    }
    await reply
      .status(200)
      .headers({ 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no' })
      .send(Readable.from(frames()));
  }
}

import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scopes } from '../common/request-context/request-context.decorators.js';
import type { Principal } from '../common/request-context/principal.js';
import { type Actor, CurrentActor } from '../common/request-context/actor.js';
import { ApiErrors } from '../common/http/api-errors.decorator.js';
import { PageQueryDto } from '../common/pagination/dto/page-query.dto.js';
import { toPageRequest } from '../common/pagination/page.js';
import { RecoverDeliveriesDto, RecoveredDto, WebhookDeliveryDto, WebhookDeliveryPageDto } from './dto/delivery.dto.js';
import {
  CreatedWebhookEndpointDto,
  CreateWebhookEndpointDto,
  UpdateWebhookEndpointDto,
  WebhookEndpointDto,
  WebhookEndpointPageDto,
  WebhookSecretDto,
} from './dto/webhook-endpoint.dto.js';
import { WebhooksService } from './webhooks.service.js';
import { ResponseNotKept, SECRET_NOT_KEPT } from '../common/idempotency/idempotent.decorator.js';

const ENDPOINT_ID = { name: 'id', example: 'we_01JC3ZD2F4G6H8J0K2M4N6P8QR' };

@ApiTags('webhooks')
@Controller('webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ResponseNotKept(SECRET_NOT_KEPT)
  @HttpCode(201)
  @Scopes('webhooks:write')
  @ApiOperation({
    summary: 'Create a webhook endpoint',
    description: 'The url must be `https://` and resolve to public addresses only. The answer holds the signing secret, shown only here.',
  })
  @ApiCreatedResponse({ type: CreatedWebhookEndpointDto })
  @ApiErrors(400, 413, 415)
  create(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Body() body: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointDto> {
    return this.webhooks.create(p.accountId, actor, body);
  }

  @Get()
  @Scopes('webhooks:read')
  @ApiOperation({ summary: 'List webhook endpoints', description: 'Newest first; secrets are never listed.' })
  @ApiOkResponse({ type: WebhookEndpointPageDto })
  @ApiErrors(400)
  list(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<WebhookEndpointPageDto> {
    return this.webhooks.list(p.accountId, toPageRequest(query));
  }

  @Get(':id')
  @Scopes('webhooks:read')
  @ApiOperation({ summary: 'Get a webhook endpoint' })
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(404)
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WebhookEndpointDto> {
    return this.webhooks.get(p.accountId, id);
  }

  @Patch(':id')
  @Scopes('webhooks:write')
  @ApiOperation({
    summary: 'Update a webhook endpoint',
    description:
      'Changes the fields sent; `status: Active` re-enables an endpoint the service disabled (a 410, or 5 days of failures): deliveries resume, and `recover` re-sends what failed meanwhile.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiErrors(400, 404, 413, 415)
  update(
    @CurrentPrincipal() p: Principal,
    @CurrentActor() actor: Actor,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointDto> {
    return this.webhooks.update(p.accountId, actor, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @Scopes('webhooks:write')
  @ApiOperation({ summary: 'Delete a webhook endpoint', description: 'Its pending deliveries are dropped with it.' })
  @ApiParam(ENDPOINT_ID)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(404)
  async delete(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.webhooks.delete(p.accountId, actor, id);
  }

  @Post(':id/rotate-secret')
  @ResponseNotKept(SECRET_NOT_KEPT)
  @HttpCode(200)
  @Scopes('webhooks:write')
  @ApiOperation({
    summary: 'Rotate the signing secret',
    description: 'The new secret is shown once. For 24 hours deliveries carry two `v1=` signatures, one per secret.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookSecretDto })
  @ApiErrors(404)
  rotate(@CurrentPrincipal() p: Principal, @CurrentActor() actor: Actor, @Param('id') id: string): Promise<WebhookSecretDto> {
    return this.webhooks.rotateSecret(p.accountId, actor, id);
  }

  @Post(':id/test')
  @HttpCode(202)
  @Scopes('webhooks:write')
  @ApiOperation({ summary: 'Send a test event', description: 'Queues a `webhook.test` event to this endpoint only.' })
  @ApiParam(ENDPOINT_ID)
  @ApiAcceptedResponse({ type: WebhookDeliveryDto, description: 'The queued delivery' })
  @ApiErrors(404, 409)
  test(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.webhooks.sendTest(p.accountId, id);
  }

  @Post(':id/recover')
  @HttpCode(202)
  @Scopes('webhooks:write')
  @ApiOperation({
    summary: 'Re-send failed deliveries',
    description:
      'Every `failed` delivery of this endpoint whose event was raised at or after `since` (within the last 14 days) is attempted again, once, oldest event first. 409 while the endpoint is Disabled: enable it first.',
  })
  @ApiParam(ENDPOINT_ID)
  @ApiAcceptedResponse({ type: RecoveredDto, description: 'How many deliveries were queued again' })
  @ApiErrors(400, 404, 409, 413, 415)
  recover(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: RecoverDeliveriesDto): Promise<RecoveredDto> {
    return this.webhooks.recover(p.accountId, id, new Date(body.since));
  }

  @Get(':id/deliveries')
  @Scopes('webhooks:read')
  @ApiOperation({
    summary: "List an endpoint's deliveries",
    description: "Newest first, each with the event's payload, its attempts (oldest first) and, while pending, when its next try is due.",
  })
  @ApiParam(ENDPOINT_ID)
  @ApiOkResponse({ type: WebhookDeliveryPageDto })
  @ApiErrors(400, 404)
  deliveries(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() query: PageQueryDto): Promise<WebhookDeliveryPageDto> {
    return this.webhooks.listDeliveries(p.accountId, id, toPageRequest(query));
  }
}

@ApiTags('webhooks')
@Controller('webhook-deliveries')
export class WebhookDeliveriesController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post(':id/retry')
  @HttpCode(202)
  @Scopes('webhooks:write')
  @ApiOperation({
    summary: 'Retry a delivery',
    description:
      'Queues one more attempt now: after a `failed` delivery once the receiver is fixed, or a `pending` one ahead of its next retry. 409 while an attempt is under way.',
  })
  @ApiParam({ name: 'id', example: 'del_01JC3ZF0A2B4C6D8E0F2G4H6J8' })
  @ApiAcceptedResponse({ type: WebhookDeliveryDto })
  @ApiErrors(404, 409)
  retry(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<WebhookDeliveryDto> {
    return this.webhooks.retry(p.accountId, id);
  }
}

import type { OpenAPIObject } from '@nestjs/swagger';
import { errorResponses } from '../common/http/api-errors.decorator.js';
import { COLLECT_PATH } from './collect-route.js';

const BODY = { $ref: '#/components/schemas/CollectDto' };

/**
 * POST /collect is a plain Fastify route (collect-route.ts), which Nest's Swagger module does not see:
 * its entry, as the controller's decorators made it (CollectDto is one of the document's extra models).
 */
export function documentCollect(document: OpenAPIObject): void {
  const post = {
    description:
      'For developers’ own sites (served pages count themselves). Any well-formed body answers 202, also for unknown apps, bots and visitors ' +
      'who sent `Sec-GPC: 1` or `DNT: 1`, and events past 120 a minute from one visitor for one app — those are not counted ' +
      '(see `analytics_events_dropped_total` in /metrics). The IP and User-Agent ' +
      'are used to make a daily visitor id and three labels (browser, OS, device), then dropped; of the URL only the pathname and campaign tags are kept.',
    operationId: 'CollectController_collect',
    parameters: [],
    requestBody: {
      required: true,
      description: 'JSON, sent as application/json or as text/plain (what `navigator.sendBeacon` sends)',
      content: { 'application/json': { schema: BODY }, 'text/plain': { schema: BODY } },
    },
    responses: { '202': { description: 'Taken (counted, or dropped without telling)' }, ...errorResponses(400, 413, 415) },
    summary: 'Count a pageview or custom event (no auth, CORS *)',
    tags: ['analytics'],
  };
  document.paths[COLLECT_PATH] = { post, ...document.paths[COLLECT_PATH] } as OpenAPIObject['paths'][string];
}

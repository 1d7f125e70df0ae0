import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '../errors/error-body.dto.js';
import type { PlatformError } from '../errors/platform-error.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Missing or invalid parameters; the message names every bad field',
  401: 'Missing, invalid, expired or revoked credential',
  403: 'The credential lacks the scope this route needs',
  402: 'A hard quota of the plan is used up',
  404: 'No such resource for this account',
  410: 'Gone',
  409: 'Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight)',
  413: 'Body larger than 1 MiB',
  415: 'Body is not application/json',
  429: 'Rate limit reached; see Retry-After',
  500: 'Internal error',
  502: 'The AI upstream failed',
  503: 'Not configured on this server',
  504: 'The AI upstream timed out',
};

/** What each status typically says, shown as the example body in Swagger UI. */
const EXAMPLE_MESSAGES: Record<number, string> = {
  400: 'name must be shorter than or equal to 100 characters',
  401: 'Invalid, expired or revoked credential',
  402: 'The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01.',
  403: 'This credential lacks the scope apps:write',
  404: 'App not found',
  409: 'Idempotency-Key was already used with another request',
  410: 'This app is no longer published',
  413: 'Request body is larger than 1 MiB',
  415: 'Content-Type must be application/json',
  429: 'Rate limit reached. Retry in 60 seconds.',
  500: 'Internal server error',
  502: 'The AI upstream failed',
  503: 'Service unavailable',
  504: 'The AI upstream timed out',
};

/** The same error responses as `ApiErrors`, as OpenAPI objects: for a route outside Nest, documented by hand (POST /collect). */
export function errorResponses(...statuses: number[]): Record<string, object> {
  const responses: Record<string, object> = {};
  for (const status of statuses) {
    responses[String(status)] = {
      description: DESCRIPTIONS[status],
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorBody' },
          example: { error: true, code: status, message: EXAMPLE_MESSAGES[status] ?? DESCRIPTIONS[status] },
        },
      },
    };
  }
  return responses;
}

/** Documents the error responses of a route, all with the shared error body and an example of it. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: DESCRIPTIONS[status],
        type: ErrorBody,
        example: { error: true, code: status, message: EXAMPLE_MESSAGES[status] ?? DESCRIPTIONS[status] },
      }),
    ),
  );

/**
 * Documents one error status of a route by an error it raises: `description` names the reasons of that status, and the
 * example body is `example`'s own (status, message, reason), so it cannot drift from the code.
 */
export const ApiErrorOf = (description: string, example: PlatformError) =>
  ApiResponse({
    status: example.status,
    type: ErrorBody,
    description,
    example: { error: true, code: example.status, message: example.message, reason: example.reason },
  });

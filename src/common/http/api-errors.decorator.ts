import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBody } from '../errors/error-body.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Missing or invalid parameters; the message names every bad field',
  401: 'Missing, invalid, expired or revoked credential',
  403: 'The credential lacks the scope this route needs',
  404: 'No such resource for this account',
  409: 'Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight)',
  413: 'Body larger than 1 MiB',
  415: 'Body is not application/json',
  429: 'Rate limit reached; see Retry-After',
  500: 'Internal error',
  502: 'The AI upstream failed',
  503: 'Not configured on this server',
  504: 'The AI upstream timed out',
};

/** Documents the error responses of a route, all with the shared error body. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status], type: ErrorBody })));

import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-errors.decorator.js';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';

/**
 * Makes a POST route honour `Idempotency-Key` (and documents the header and the 409). Use it on
 * routes behind the bearer guard whose response is JSON (not a stream):
 *
 *   @Post() @Scopes('apps:write') @Idempotent()
 */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with ' +
        '`Idempotent-Replayed: true`, for the same key and body. The same key with another body, or while the first ' +
        'request is still running, answers 409. A failed request does not keep the key. 1–255 visible ASCII characters, e.g. a UUID.',
      schema: { type: 'string', maxLength: 255, example: '5d3c9a0e-6f1b-4b7e-9a53-0f2d4c8e1b7a' },
    }),
    ApiErrors(409),
  );

import type { OpenAPIObject } from '@nestjs/swagger';

const HEADER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with ' +
    '`Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first ' +
    'request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret ' +
    'shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID.',
  schema: { type: 'string', maxLength: 255, example: '5d3c9a0e-6f1b-4b7e-9a53-0f2d4c8e1b7a' },
};

const IDEMPOTENCY_CONFLICT = 'an Idempotency-Key reused with another request, still in flight, or whose response is not kept';
const IDEMPOTENCY_EXAMPLE = { error: true, code: 409, message: 'Idempotency-Key was already used with another request' };

/**
 * Every authenticated POST honours Idempotency-Key (IdempotencyRoutes binds the interceptor), so
 * the document says so on each of them: the header, and the 409 it can cause.
 */
export function documentIdempotency(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    const post = item.post;
    if (!post?.security?.some((s) => 'bearer' in s)) continue;
    post.parameters = [...(post.parameters ?? []).filter((p) => !('name' in p && p.name === HEADER.name)), HEADER as never];
    const own = post.responses['409'] as { description?: string; content?: Record<string, { example?: unknown }> } | undefined;
    post.responses['409'] = {
      description: own?.description ? `${own.description}; or ${IDEMPOTENCY_CONFLICT}` : `Conflict: ${IDEMPOTENCY_CONFLICT}`,
      // The route's own example when it has one (its own conflicts come first), else the idempotency one.
      content: {
        'application/json': {
          schema: { $ref: '#/components/schemas/ErrorBody' },
          example: own?.content?.['application/json']?.example ?? IDEMPOTENCY_EXAMPLE,
        },
      },
    };
  }
}

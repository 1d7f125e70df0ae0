import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorBody } from '../common/errors/error-body.dto.js';
import { documentIdempotency } from '../common/idempotency/idempotency.openapi.js';
import { documentCollect } from '../analytics/collect.openapi.js';
import { CollectDto } from '../analytics/dto/collect.dto.js';

export const OPENAPI_JSON_PATH = 'docs/openapi.json';

/**
 * Swagger UI and its files: scripts and styles of its own origin only (the page has an inline <style>
 * and style attributes, hence 'unsafe-inline' for styles), calls to this API only, never in a frame.
 */
export const DOCS_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; " +
    "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

const DESCRIPTION = `
One REST API to create and manage privacy-first apps, deploy them to environments, record the
people who sign up to them, generate text with AI, and receive signed webhooks.

**Authentication.** Every \`/v1\` route takes \`Authorization: Bearer <API key or OAuth access token>\`,
except \`POST /v1/oauth/token\`. \`/v1/admin/*\` takes the operator's admin token.

**Errors.** Every error has the body \`{ "error": true, "code": <HTTP status>, "message": "..." }\`
(see the \`ErrorBody\` schema); \`requestId\` and \`details\` may be added.

**Request ids.** Every response carries \`x-request-id\` (your own value is echoed when you send one).

**Limits.** Bodies up to 1 MiB (413 above), JSON only (415 otherwise), unknown body fields are rejected (400).
A JSON body holds at most 1,000 keys in one object, 10,000 values in all and 32 levels of nesting (else 400 with
\`reason: json_too_complex\`); strings must be well-formed Unicode without NUL characters (else 400 naming the field).
An empty body is no body: a route whose fields are all optional takes one, also with \`content-type: application/json\`.
`;

/** Swagger UI at /docs and the OpenAPI 3 document at /docs/openapi.json, generated from the DTOs. */
export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Application Platform API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    // Opaque tokens, not JWTs (Nest's default bearerFormat would say JWT).
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'API key (sk_…) or OAuth 2.0 access token (at_…)' }, 'bearer')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'The operator admin token (ADMIN_TOKEN)' }, 'admin')
    .build();
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    if (request.url === '/docs' || request.url.startsWith('/docs/') || request.url.startsWith('/docs?')) void reply.headers(DOCS_SECURITY_HEADERS);
    done();
  });
  // Built on the first request for it, once: a start (and every test app) need not pay for it.
  const document = () => {
    const built = SwaggerModule.createDocument(app, config, { extraModels: [ErrorBody, CollectDto] });
    documentIdempotency(built);
    documentCollect(built);
    return built;
  };
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: 'docs/openapi.yaml',
    // "Authorize" once: the key survives a reload of the page.
    swaggerOptions: { persistAuthorization: true },
  });
}

import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { ErrorBody } from '../common/errors/error-body.dto.js';
import { documentIdempotency } from '../common/idempotency/idempotency.openapi.js';

export const OPENAPI_JSON_PATH = 'docs/openapi.json';

const DESCRIPTION = `
One REST API to create and manage privacy-first apps, deploy them to environments, record the
people who sign up to them, generate text with AI, and receive signed webhooks.

**Authentication.** Every \`/v1\` route takes \`Authorization: Bearer <API key or OAuth access token>\`,
except \`POST /v1/oauth/token\`. \`/v1/admin/*\` takes the operator's admin token.

**Errors.** Every error has the body \`{ "error": true, "code": <HTTP status>, "message": "..." }\`
(see the \`ErrorBody\` schema); \`requestId\` and \`details\` may be added.

**Request ids.** Every response carries \`x-request-id\` (your own value is echoed when you send one).

**Limits.** Bodies up to 1 MiB (413 above), JSON only (415 otherwise), unknown body fields are rejected (400).
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
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ErrorBody] });
  documentIdempotency(document);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    yamlDocumentUrl: 'docs/openapi.yaml',
    // "Authorize" once: the key survives a reload of the page.
    swaggerOptions: { persistAuthorization: true },
  });
}

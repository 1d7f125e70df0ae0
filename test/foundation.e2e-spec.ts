import { Controller, Get, Module } from '@nestjs/common';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Public } from '../src/common/http/public.decorator.js';
import { ADMIN_TOKEN, startTestApp, target, TestApp } from './support/test-app.js';
import { until } from './support/webhook-receiver.js';

// A route that fails the way a bug would, to see what a client gets from a 500.
@Public()
@Controller('boom')
class BoomController {
  @Get()
  boom(): never {
    throw new Error('secret detail: SELECT * FROM accounts at /work/main/src/x.ts:12');
  }
}
@Module({ controllers: [BoomController] })
class BoomModule {}

describe(`foundation (${target})`, () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ modules: [BoomModule] });
  });
  afterAll(() => app.close());

  const expectErrorBody = (body: Record<string, unknown>, code: number) => {
    expect(body).toMatchObject({ error: true, code });
    expect(typeof body.message).toBe('string');
  };

  it('is ready, with the database checked', async () => {
    const res = await app.http().get('/health/ready').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.info.database.status).toBe('up');
    if (app.env.REDIS_URL) expect(res.body.info.redis.status).toBe('up');
    await app.http().get('/health/live').expect(200, { status: 'ok' });
  });

  it('echoes a client x-request-id and generates one otherwise', async () => {
    const echoed = await app.http().get('/health/live').set('x-request-id', 'client-id-123').expect(200);
    expect(echoed.headers['x-request-id']).toBe('client-id-123');
    const generated = await app.http().get('/nope').expect(404);
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.body.requestId).toBe(generated.headers['x-request-id']);
  });

  it('answers an unknown route with 404 and the error body', async () => {
    const res = await app.http().get('/v1/does-not-exist').expect(404);
    expectErrorBody(res.body, 404);
    // Never the path: it can carry what the client did not mean to have logged.
    expect(res.body).toMatchObject({ message: 'No route matches this method and path', reason: 'route_not_found' });
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app
      .http()
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('content-type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expectErrorBody(res.body, 400);
    expect(res.body.message).toMatch(/JSON/);
  });

  it('answers a non-JSON content type with 415', async () => {
    const res = await app
      .http()
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('content-type', 'text/plain')
      .send('email=a@b.co')
      .expect(415);
    expectErrorBody(res.body, 415);
    expect(res.body.message).toBe('Content-Type must be application/json (got text/plain)');
  });

  it('answers a 1.5 MiB body with 413', async () => {
    const big = JSON.stringify({ email: 'a@b.co', pad: 'x'.repeat(1.5 * 1024 * 1024) });
    const res = await app
      .http()
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('content-type', 'application/json')
      .send(big)
      .expect(413);
    expectErrorBody(res.body, 413);
  });

  it('names every bad field in a validation failure', async () => {
    const res = await app
      .http()
      .post('/v1/admin/accounts')
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .send({ email: 'not-an-email', emial: 'typo@example.com' })
      .expect(400);
    expectErrorBody(res.body, 400);
    expect(res.body.message).toContain('email must be an e-mail address');
    expect(res.body.message).toContain('property emial should not exist');
    expect(res.body.details).toHaveLength(2);
  });

  it('hides the details of an internal error', async () => {
    const res = await app.http().get('/v1/boom').expect(500);
    expect(res.body).toEqual({ error: true, code: 500, message: 'Internal error; try again later', requestId: res.headers['x-request-id'] });
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|secret|\.ts/);
  });

  it('creates an account with the admin token, and refuses without it', async () => {
    const created = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'Dev@Example.com' }).expect(201);
    expect(created.body.accountId).toMatch(/^acc_[0-9A-Z]{26}$/);
    expect(created.body.email).toBe('dev@example.com');
    const rows = await app.query('SELECT id, email FROM accounts WHERE id = $1', [created.body.accountId]);
    expect(rows).toEqual([{ id: created.body.accountId, email: 'dev@example.com' }]);

    const duplicate = await app.http().post('/v1/admin/accounts').set('authorization', `Bearer ${ADMIN_TOKEN}`).send({ email: 'dev@example.com' }).expect(409);
    expectErrorBody(duplicate.body, 409);

    const missing = await app.http().post('/v1/admin/accounts').send({ email: 'x@example.com' }).expect(401);
    expectErrorBody(missing.body, 401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await app.http().post('/v1/admin/accounts').set('authorization', 'Bearer not-the-admin-token').send({ email: 'x@example.com' }).expect(401);
    expect(wrong.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('serves Swagger UI and a valid OpenAPI 3 document with the error schema', async () => {
    const ui = await app.http().get('/docs').expect(200);
    expect(ui.headers['content-type']).toContain('text/html');
    expect(ui.text).toContain('swagger-ui');
    const res = await app.http().get('/docs/openapi.json').expect(200);
    const doc = res.body;
    expect(doc.openapi).toMatch(/^3\./);
    await SwaggerParser.validate(structuredClone(doc));
    expect(doc.components.schemas.ErrorBody.required).toEqual(expect.arrayContaining(['error', 'code', 'message']));
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Keys and tokens are opaque strings, not JWTs.
    for (const scheme of Object.values(doc.components.securitySchemes) as Array<{ bearerFormat?: string }>) expect(scheme.bearerFormat).not.toBe('JWT');
    // "Authorize" once in Swagger UI, and the key survives a reload.
    const init = await app.http().get('/docs/swagger-ui-init.js').expect(200);
    expect(init.text).toMatch(/"persistAuthorization":\s*true/);
    const createAccount = doc.paths['/v1/admin/accounts'].post;
    expect(createAccount.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateAccountDto');
    expect(createAccount.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorBody');
    // The CLI plugin documented the DTO from its types and validators.
    expect(doc.components.schemas.CreateAccountDto.properties.email).toMatchObject({ type: 'string', format: 'email' });
  });

  it('exposes Prometheus metrics by route and status', async () => {
    await app.http().get('/v1/apps/app_0').expect(401);
    // Counted as the answer finishes (Fastify's onResponse), which can be just after the client has it.
    const counted = /http_requests_total\{method="GET",route="\/v1\/apps\/:appId",status="401"\} [1-9]/;
    let text = '';
    await until(async () => counted.test((text = (await app.http().get('/metrics').expect(200)).text)), 5_000, 'the request counted');
    // By route pattern, not by path: an id never makes a series of its own.
    expect(text).not.toContain('app_0');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/apps\/:appId",status="401"\} [1-9]/);
  });
});

// Not a target: the floor of the framework. NestJS on Fastify (the service's stack, same versions)
// answering GET /v1/apps with the reference's own SQL and JSON, and nothing else — no auth, rate
// limit, validation, interceptor, metrics or logging. Its ratio to the bare reference is the most
// any Nest service could reach on load 1 on this machine; the bench prints it beside load 1.
//   env: DATABASE_URL, ACCOUNT_ID, PORT, SERVICE_URL
import 'reflect-metadata';
import { Controller, Get, Module, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const accountId = process.env.ACCOUNT_ID;

const toApp = (r) => {
  const published = r.publish_state === 'published';
  return {
    appId: r.id,
    name: r.name,
    description: r.description,
    slug: r.slug,
    visibility: r.visibility,
    publishState: r.publish_state,
    publishedDeploymentId: published ? r.published_deployment_id : null,
    publishedAt: published ? r.published_at.toISOString() : null,
    publicUrl: published ? `${process.env.SERVICE_URL}/p/${r.slug}/` : null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
};

// Decorators applied by hand: this file is plain JavaScript.
class AppsController {
  async list(query) {
    const limit = Number(query.limit ?? 20);
    const { rows } = await pool.query(
      `SELECT id, name, description, slug, visibility, publish_state, published_deployment_id, published_at, created_at, updated_at
         FROM apps WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [accountId, limit + 1],
    );
    const items = rows.slice(0, limit).map(toApp);
    return { data: items, nextCursor: rows.length > limit ? Buffer.from(items.at(-1).appId).toString('base64url') : null };
  }
}
Controller('v1/apps')(AppsController);
Query()(AppsController.prototype, 'list', 0);
Get()(AppsController.prototype, 'list', Object.getOwnPropertyDescriptor(AppsController.prototype, 'list'));
class FloorModule {}
Module({ controllers: [AppsController] })(FloorModule);

const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
await app.listen(Number(process.env.PORT), '127.0.0.1');
process.send?.('ready');

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
import { appsPage } from './apps-page.mjs';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const accountId = process.env.ACCOUNT_ID;

// Decorators applied by hand: this file is plain JavaScript.
class AppsController {
  list(query) {
    return appsPage(pool, accountId, Number(query.limit ?? 20));
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

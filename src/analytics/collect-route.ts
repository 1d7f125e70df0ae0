import type { FastifyBodyParser, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { DEFAULT_JSON_LIMITS, jsonLimitCrossing } from '../common/http/json-bounds.js';
import { requestIdOf } from '../common/http/request-id.js';
import type { PlatformRouteConfig } from '../common/http/route-config.js';
import { malformedStringIn } from '../common/http/well-formed-strings.js';
import { CollectService } from './collect.service.js';

/** The beacon endpoint (no `/v1` prefix: it is the visitor plane's). */
export const COLLECT_PATH = '/collect';
export const COLLECT_CORS = { 'access-control-allow-origin': '*' } as const;
/** The same, as the flat `[name, value]` list `writeHead` takes fastest. */
const COLLECT_CORS_RAW: readonly string[] = Object.entries(COLLECT_CORS).flat();
/** Bodies up to this many bytes are read by the lean path; larger ones (never a beacon) go to the route, with its limits and answers. */
const LEAN_BODY_BYTES = 16 * 1024;
/** A body the lean path has read but left to the route: the route reads it from here instead of the (consumed) request. */
const READ_AHEAD = Symbol('collectBody');

type Raw = IncomingMessage & { [READ_AHEAD]?: Buffer };

/**
 * POST /collect as a plain Fastify route, outside Nest's guards, pipes and interceptors (it has no
 * credential, no rate-limit bucket of the API and no idempotency): the body parsers, their limits, the
 * 415, the NUL and lone-surrogate checks, the request id, metrics and error envelope are those of every
 * route. Documented by hand in the OpenAPI document (collect.openapi.ts).
 */
export function registerCollectRoute(fastify: FastifyInstance, collector: CollectService): void {
  const config: PlatformRouteConfig = { acceptsText: true };
  fastify.route({
    method: 'POST',
    url: COLLECT_PATH,
    config,
    // A body the lean path read ahead is read again from memory, through the same parsers.
    preParsing: (request, _reply, payload, done) => {
      const ahead = (request.raw as Raw)[READ_AHEAD];
      done(null, ahead ? Readable.from([ahead], { objectMode: false }) : payload);
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      await collector.collect(request.body, request.ip, request.headers);
      return reply.status(202).headers(COLLECT_CORS).send();
    },
  });
}

/** What the lean path reports of each beacon it answers: for the metrics and the request log. */
export type BeaconAnswered = (host: string | undefined, status: number, seconds: number) => void;

/**
 * The lean path of beacons, on Node's request ahead of Fastify (beside the sites', see
 * `registerLeanSitePath`): a `POST /collect` of up to LEAN_BODY_BYTES of JSON or text/plain is read
 * here, bounded and parsed as the JSON parser does (`jsonLimitCrossing`, Fastify's secure parser),
 * checked for NUL and lone surrogates, and, when `CollectService.collectPlain` takes it as it is,
 * answered 202 without a Fastify request or reply. Anything else — another type or size, a body that
 * fails any check, an error while collecting — goes to the route with the bytes already read: it
 * answers exactly as if this path did not exist. Answers `false` for requests that are not beacons.
 */
export function leanBeacons(
  collector: CollectService,
  parseJson: FastifyBodyParser<string>,
  clientIp: (req: IncomingMessage) => string,
  answered: BeaconAnswered,
): (req: IncomingMessage, res: ServerResponse, next: (req: IncomingMessage, res: ServerResponse) => void) => boolean {
  return (req, res, next) => {
    if (req.method !== 'POST' || req.url !== COLLECT_PATH || collector.closing) return false;
    const { headers } = req;
    const length = headers['content-length'];
    if (headers['transfer-encoding'] !== undefined || length === undefined || !beaconType(headers['content-type'])) return false;
    const bytes = Number(length);
    if (!(bytes > 0 && bytes <= LEAN_BODY_BYTES)) return false;
    const started = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      const route = () => {
        (req as Raw)[READ_AHEAD] = body;
        next(req, res);
      };
      const answer = () => {
        // A flat array, as the sites' lean path writes (see hosting/raw-headers.ts): an object spread here cost a beacon about 5 µs.
        res.writeHead(202, [...COLLECT_CORS_RAW, 'x-request-id', requestIdOf(req), 'content-length', '0']);
        res.end();
        answered(headers.host, 202, (performance.now() - started) / 1000);
      };
      let taken: boolean | Promise<void>;
      try {
        const value = parsed(body, parseJson);
        taken = value !== undefined && collector.collectPlain(value, clientIp(req), headers);
      } catch {
        taken = false; // the route answers it, errors and all
      }
      if (taken === true) answer();
      else if (taken === false) route();
      else taken.then(answer, route);
    });
    return true;
  };
}

/** text/plain (what `navigator.sendBeacon` sends) or application/json, with or without parameters. */
function beaconType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return type === 'text/plain' || type === 'application/json';
}

/** The body as the route's JSON parser would take it, or undefined for anything it would refuse (or a BOM-less oddity it handles). */
function parsed(body: Buffer, parseJson: FastifyBodyParser<string>): unknown {
  const text = body.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff || jsonLimitCrossing(text, DEFAULT_JSON_LIMITS)) return undefined;
  let value: unknown;
  let failed = true;
  // Fastify's default JSON parser (prototype poisoning refused) answers synchronously.
  void (parseJson as unknown as (req: unknown, body: string, done: (err: Error | null, value?: unknown) => void) => void)(undefined, text, (err, result) => {
    failed = err !== null;
    value = result;
  });
  // A NUL or a lone surrogate can only come from a `\u` escape (raw control characters are not JSON, and the UTF-8 decoding replaced
  // any invalid sequence): without one the walk has nothing to find.
  if (failed || (text.includes('\\u') && malformedStringIn(value, 'body') !== undefined)) return undefined;
  return value;
}

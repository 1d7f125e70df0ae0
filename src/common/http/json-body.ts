import type { FastifyBodyParser, FastifyRequest } from 'fastify';
import { RequestError, RequestErrorCode } from '../errors/request-errors.js';
import { describeCrossing, jsonLimitCrossing } from './json-bounds.js';
import { jsonLimitsOf, routeConfigOf } from './route-config.js';

type Done = (err: Error | null, body?: unknown) => void;

/**
 * The one parser of JSON bodies, sent as application/json or (where a route takes it) as text/plain:
 * - an empty body is no body (`undefined`), so a POST whose body is optional takes
 *   `content-type: application/json` with nothing after it, and a route that needs one says which fields;
 * - the raw text is checked against the route's JSON limits before anything parses it (a 400 naming
 *   the limit, at the first one crossed);
 * - then Fastify's own secure parser (prototype poisoning refused), whose failure is a 400 that echoes
 *   nothing of the body.
 */
export function createJsonBodyParser(secureParse: FastifyBodyParser<string>): (request: FastifyRequest, body: Buffer, done: Done) => void {
  return (request, body, done) => {
    if (body.length === 0) return done(null, undefined);
    const text = body.toString('utf8').replace(/^\uFEFF/, ''); // a BOM, as the parser drops it
    const crossing = jsonLimitCrossing(text, jsonLimitsOf(routeConfigOf(request)));
    if (crossing) {
      return done(new RequestError(RequestErrorCode.JsonTooComplex, `The JSON body is too complex: ${describeCrossing(crossing)} (the limit)`));
    }
    void secureParse(request, text, (err: Error | null, value?: unknown) => (err ? done(invalidJson()) : done(null, value)));
  };
}

export function invalidJson(): RequestError {
  return new RequestError(RequestErrorCode.InvalidJson, 'The body is not valid JSON (send a JSON object)');
}

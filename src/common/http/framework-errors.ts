import { HttpException } from '@nestjs/common';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RequestError, RequestErrorCode } from '../errors/request-errors.js';
import { invalidJson } from './json-body.js';
import { BODY_LIMIT_BYTES, formatBytes } from './route-config.js';

/**
 * Fastify's router answers some requests before Nest sees them (a path segment longer than the
 * router allows, a malformed percent-escape) with its own body, which quotes the whole path. This
 * gives them the error envelope instead, echoing nothing of the request.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const problem =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new RequestError(RequestErrorCode.UriTooLong, 'A segment of the request path is too long')
      : error.code === 'FST_ERR_BAD_URL'
        ? new RequestError(RequestErrorCode.InvalidParameter, 'The request path has a malformed percent-escape')
        : new RequestError(RequestErrorCode.InvalidParameter, 'The request could not be routed');
  void reply
    .status(problem.status)
    .header('content-type', 'application/json; charset=utf-8')
    .header('x-request-id', request.id)
    .send({ error: true, code: problem.status, message: problem.message, reason: problem.reason, requestId: request.id });
}

/**
 * Fastify's own errors about a request's body (its content-type parsers' FST_ERR_CTP_*) as the
 * RequestError to answer instead: the envelope with a reason, and nothing of the body in the message.
 * Undefined for any other error.
 */
export function bodyParserProblem(error: unknown, request: FastifyRequest | undefined): RequestError | undefined {
  // Nest hands a 4xx FastifyError over as an HttpException caused by it.
  const fastifyError = error instanceof HttpException ? error.cause : error;
  switch ((fastifyError as { code?: unknown } | null | undefined)?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new RequestError(RequestErrorCode.BodyTooLarge, `Request body is larger than ${formatBytes(request?.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES)}`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new RequestError(RequestErrorCode.UnsupportedMediaType, 'Content-Type must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new RequestError(RequestErrorCode.MalformedRequest, 'The request body is not as long as its Content-Length says');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return invalidJson();
    default:
      return undefined;
  }
}

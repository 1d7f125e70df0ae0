import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { RequestError, RequestErrorCode } from '../errors/request-errors.js';

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

import type { FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { RequestError, RequestErrorCode } from '../errors/request-errors.js';

/** The answer to a request Node's HTTP parser refused (llhttp's error codes, Node's request timeout). */
function problemOf(code: string | undefined): RequestError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new RequestError(RequestErrorCode.HeadersTooLarge, 'The request headers are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new RequestError(RequestErrorCode.RequestTimeout, 'The request took too long to arrive');
    case 'HPE_INVALID_TRANSFER_ENCODING': // beside a Content-Length, or not ending in chunked
    case 'HPE_UNEXPECTED_CONTENT_LENGTH': // two different ones
    case 'HPE_INVALID_CONTENT_LENGTH':
      return new RequestError(RequestErrorCode.MalformedRequest, 'Content-Length and Transfer-Encoding conflict or are not valid');
    default:
      return new RequestError(RequestErrorCode.MalformedRequest, 'The request is not valid HTTP/1.1');
  }
}

/**
 * Fastify's `clientErrorHandler`: a request that never became one (headers too large, a malformed
 * request line, conflicting Content-Length and Transfer-Encoding) is answered in the error envelope
 * too, echoing nothing, and the connection closed — as Node and Fastify do, with their own bodies.
 */
export function clientErrorHandler(this: FastifyInstance, err: Error & { code?: string }, socket: Socket): void {
  // A reset connection has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const problem = problemOf(err.code);
  const body = JSON.stringify({ error: true, code: problem.status, message: problem.message, reason: problem.reason });
  this.log.debug({ code: err.code }, 'Refused a malformed request');
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

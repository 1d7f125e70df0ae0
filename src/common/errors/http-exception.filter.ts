import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientInputProblem, withoutQueryParameters } from '../../database/postgres-errors.js';
import { bodyParserProblem } from '../http/framework-errors.js';
import { ErrorBody } from './error-body.dto.js';
import { PlatformError } from './platform-error.js';
import { RequestErrorCode } from './request-errors.js';

export const INTERNAL_ERROR_MESSAGE = 'Internal error; try again later';

/** Errors that carry their own HTTP status without being HttpExceptions (Fastify's parser errors). */
interface StatusError {
  statusCode?: number;
  status?: number;
  message?: string;
}

/**
 * The one place every error becomes `{ error: true, code, message }`. Module errors
 * (PlatformError) bring their status and `reason`, and so do Fastify's own body parser
 * errors (body too large, media type); HttpExceptions (Nest's own) keep their status and
 * message; other errors with a 4xx status keep theirs; anything else is a 500 whose details
 * go only to the log.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('HttpExceptionFilter');

  catch(thrown: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    const reply = ctx.getResponse<FastifyReply>();
    const request = ctx.getRequest<FastifyRequest>();
    // Fastify's body parser errors (too large, media type, bad JSON) get a reason like every other client error.
    const exception = bodyParserProblem(thrown, request) ?? thrown;
    const body = this.toBody(exception, request);

    if (exception instanceof PlatformError && exception.extras.headers) void reply.headers(exception.extras.headers);
    void reply.status(body.code).header('content-type', 'application/json; charset=utf-8').send(body);
  }

  private toBody(exception: unknown, request: FastifyRequest): ErrorBody {
    const requestId = request?.id;
    // No route matched: Nest's message would quote the path, which is never echoed.
    if (request?.is404 && exception instanceof HttpException && exception.getStatus() === 404) {
      return { error: true, code: 404, message: 'No route matches this method and path', reason: RequestErrorCode.RouteNotFound, requestId };
    }
    const inputProblem = clientInputProblem(exception);
    if (inputProblem) {
      this.logger.warn({ err: withoutQueryParameters(exception), requestId }, 'A query failed on client input that the request checks let through');
      return { error: true, code: 400, message: inputProblem, reason: RequestErrorCode.InvalidParameter, requestId };
    }
    if (exception instanceof PlatformError) {
      const status = exception.status;
      if (status >= 500) this.logger.error({ err: exception, requestId }, exception.message);
      return { error: true, code: status, message: exception.message, reason: exception.reason, requestId, ...exception.extras.body } as ErrorBody;
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const response = exception.getResponse();
      const { message, details } = this.messageOf(response, exception.message);
      if (status >= 500) this.logger.error({ err: exception, requestId }, message);
      return { error: true, code: status, message, requestId, ...(details ? { details } : {}) } as ErrorBody;
    }
    const status = (exception as StatusError)?.statusCode ?? (exception as StatusError)?.status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return { error: true, code: status, message: (exception as StatusError).message || 'Bad request', requestId };
    }
    this.logger.error({ err: withoutQueryParameters(exception), requestId }, 'Unhandled error');
    return { error: true, code: HttpStatus.INTERNAL_SERVER_ERROR, message: INTERNAL_ERROR_MESSAGE, requestId };
  }

  private messageOf(response: string | object, fallback: string): { message: string; details?: string[] } {
    if (typeof response === 'string') return { message: response };
    const r = response as { message?: unknown; details?: unknown };
    if (Array.isArray(r.message)) return { message: r.message.join('; '), details: r.message.map(String) };
    const details = Array.isArray(r.details) ? r.details.map(String) : undefined;
    return { message: typeof r.message === 'string' ? r.message : fallback, details };
  }
}

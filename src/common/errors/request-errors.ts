import { PlatformError } from './platform-error.js';

/** Problems with the request itself, found before any module's logic runs. */
export enum RequestErrorCode {
  InvalidParameter = 'invalid_parameter',
  InvalidCursor = 'invalid_cursor',
  RouteNotFound = 'route_not_found',
  UriTooLong = 'uri_too_long',
  UnsupportedMediaType = 'unsupported_media_type',
  BodyTooLarge = 'body_too_large',
  InvalidJson = 'invalid_json',
  JsonTooComplex = 'json_too_complex',
  /** Not HTTP/1.1 that the server can read: the request line, conflicting lengths, a body shorter than its length. */
  MalformedRequest = 'malformed_request',
  HeadersTooLarge = 'headers_too_large',
  RequestTimeout = 'request_timeout',
  WorkerOnly = 'worker_process',
}

/** A 400 lists this many problems at most (a body with 1,000 unknown keys has 1,000), and says how many more there were. */
export const MAX_PROBLEMS_LISTED = 20;

export class RequestError extends PlatformError<RequestErrorCode> {
  protected readonly statuses = {
    [RequestErrorCode.InvalidParameter]: 400,
    [RequestErrorCode.InvalidCursor]: 400,
    [RequestErrorCode.RouteNotFound]: 404,
    [RequestErrorCode.UriTooLong]: 414,
    [RequestErrorCode.UnsupportedMediaType]: 415,
    [RequestErrorCode.BodyTooLarge]: 413,
    [RequestErrorCode.InvalidJson]: 400,
    [RequestErrorCode.JsonTooComplex]: 400,
    [RequestErrorCode.MalformedRequest]: 400,
    [RequestErrorCode.HeadersTooLarge]: 431,
    [RequestErrorCode.RequestTimeout]: 408,
    [RequestErrorCode.WorkerOnly]: 404,
  };

  /** A 400 naming the bad parameters (`details` lists them one by one, the first MAX_PROBLEMS_LISTED of them). */
  static invalid(problems: string[]): RequestError {
    const listed = problems.slice(0, MAX_PROBLEMS_LISTED);
    const more = problems.length - listed.length;
    const message = more > 0 ? `${listed.join('; ')}; and ${more} more` : listed.join('; ');
    return new RequestError(RequestErrorCode.InvalidParameter, message, { body: { details: listed } });
  }

  static invalidCursor(): RequestError {
    return new RequestError(RequestErrorCode.InvalidCursor, 'cursor is invalid: pass the nextCursor of a previous page unchanged');
  }
}

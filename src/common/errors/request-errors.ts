import { PlatformError } from './platform-error.js';

/** Problems with the request itself, found before any module's logic runs. */
export enum RequestErrorCode {
  InvalidParameter = 'invalid_parameter',
  InvalidCursor = 'invalid_cursor',
  RouteNotFound = 'route_not_found',
  UriTooLong = 'uri_too_long',
  UnsupportedMediaType = 'unsupported_media_type',
  BodyTooLarge = 'body_too_large',
  WorkerOnly = 'worker_process',
}

export class RequestError extends PlatformError<RequestErrorCode> {
  protected readonly statuses = {
    [RequestErrorCode.InvalidParameter]: 400,
    [RequestErrorCode.InvalidCursor]: 400,
    [RequestErrorCode.RouteNotFound]: 404,
    [RequestErrorCode.UriTooLong]: 414,
    [RequestErrorCode.UnsupportedMediaType]: 415,
    [RequestErrorCode.BodyTooLarge]: 413,
    [RequestErrorCode.WorkerOnly]: 404,
  };

  /** A 400 naming every bad parameter (`details` lists them one by one). */
  static invalid(problems: string[]): RequestError {
    return new RequestError(RequestErrorCode.InvalidParameter, problems.join('; '), { body: { details: problems } });
  }

  static invalidCursor(): RequestError {
    return new RequestError(RequestErrorCode.InvalidCursor, 'cursor is invalid: pass the nextCursor of a previous page unchanged');
  }
}

import { type ErrorCode, errorCodes, PlatformError } from './platform-error.js';

/** Problems with the request itself, found before any module's logic runs. */
export const RequestErrorCode = errorCodes({
  InvalidParameter: ['invalid_parameter', 400],
  InvalidCursor: ['invalid_cursor', 400],
  RouteNotFound: ['route_not_found', 404],
  UriTooLong: ['uri_too_long', 414],
  UnsupportedMediaType: ['unsupported_media_type', 415],
  BodyTooLarge: ['body_too_large', 413],
  InvalidJson: ['invalid_json', 400],
  JsonTooComplex: ['json_too_complex', 400],
  /** Not HTTP/1.1 that the server can read: the request line, conflicting lengths, a body shorter than its length. */
  MalformedRequest: ['malformed_request', 400],
  HeadersTooLarge: ['headers_too_large', 431],
  RequestTimeout: ['request_timeout', 408],
  WorkerOnly: ['worker_process', 404],
});
export type RequestErrorCode = ErrorCode<typeof RequestErrorCode>;

/** A 400 lists this many problems at most (a body with 1,000 unknown keys has 1,000), and says how many more there were. */
export const MAX_PROBLEMS_LISTED = 20;

export class RequestError extends PlatformError.of(RequestErrorCode) {
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

/** What an error adds to its response beside the envelope. */
export interface ErrorExtras {
  /** Response headers (Retry-After, WWW-Authenticate…). */
  headers?: Record<string, string>;
  /** Fields merged into the body (OAuth's RFC 6749 `error` and `error_description`, validation `details`). */
  body?: Record<string, unknown>;
}

/** A module's codes as written: a name for the code, its `reason` string and its HTTP status. */
export type ErrorCodeTable = Record<string, readonly [reason: string, status: number]>;

/** The codes of a module, name → `reason` (what `errorCodes` returns: use it like an enum). */
export type ErrorCodes<T extends ErrorCodeTable = ErrorCodeTable> = { readonly [K in keyof T]: T[K][0] };

/** The union of a module's reasons: `export type AppsErrorCode = ErrorCode<typeof AppsErrorCode>`. */
export type ErrorCode<E extends ErrorCodes> = E[keyof E];

const STATUSES = new WeakMap<object, Readonly<Record<string, number>>>();

/**
 * A module's error codes, each with its HTTP status, written once:
 * `export const AppsErrorCode = errorCodes({ NotFound: ['app_not_found', 404], … })`. The result reads like
 * an enum (`AppsErrorCode.NotFound` is `'app_not_found'`); `PlatformError.of(AppsErrorCode)` is the base
 * of the module's error class, which maps each reason to its status.
 */
export function errorCodes<const T extends ErrorCodeTable>(table: T): ErrorCodes<T> {
  const codes = Object.freeze(Object.fromEntries(Object.entries(table).map(([name, [reason]]) => [name, reason]))) as ErrorCodes<T>;
  STATUSES.set(codes, Object.freeze(Object.fromEntries(Object.values(table))));
  return codes;
}

/**
 * The base of every module's error class (`AppsError`, `WebhooksError`, `AiError`…): a stable
 * machine-readable `reason` from the module's codes, a message for people, and the HTTP
 * status the module maps the code to. The one exception filter turns it into the error envelope
 * (`{ error: true, code: <status>, message, reason }`), so services never think in HTTP.
 *
 * A module's file holds its codes and factories only:
 *
 *     export const AppsErrorCode = errorCodes({ NotFound: ['app_not_found', 404] });
 *     export type AppsErrorCode = ErrorCode<typeof AppsErrorCode>;
 *     export class AppsError extends PlatformError.of(AppsErrorCode) {
 *       static notFound(id: string): AppsError { return new AppsError(AppsErrorCode.NotFound, `App ${id} not found`); }
 *     }
 *
 * Messages: one sentence, no trailing period, naming the field or the id concerned — never an
 * e-mail address or other personal data (error bodies end up in logs).
 */
export abstract class PlatformError<C extends string = string> extends Error {
  /** HTTP status per code: each module's table. */
  protected abstract readonly statuses: Readonly<Record<C, number>>;

  constructor(
    readonly reason: C,
    message: string,
    readonly extras: ErrorExtras = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  get status(): number {
    return this.statuses[this.reason];
  }

  /** The base class of a module's errors, its statuses those of `codes` (made by `errorCodes`). */
  static of<E extends ErrorCodes>(codes: E) {
    const statuses = STATUSES.get(codes);
    if (!statuses) throw new Error('PlatformError.of takes the codes errorCodes() made');
    abstract class ModuleError extends PlatformError<ErrorCode<E>> {
      protected readonly statuses = statuses as Readonly<Record<ErrorCode<E>, number>>;
    }
    return ModuleError;
  }
}

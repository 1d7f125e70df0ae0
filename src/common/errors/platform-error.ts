/** What an error adds to its response beside the envelope. */
export interface ErrorExtras {
  /** Response headers (Retry-After, WWW-Authenticate…). */
  headers?: Record<string, string>;
  /** Fields merged into the body (OAuth's RFC 6749 `error` and `error_description`, validation `details`). */
  body?: Record<string, unknown>;
}

/**
 * The base of every module's error class (`AppsError`, `WebhooksError`, `AiError`…): a stable
 * machine-readable `reason` from the module's code enum, a message for people, and the HTTP
 * status the module maps the code to. The one exception filter turns it into the error envelope
 * (`{ error: true, code: <status>, message, reason }`), so services never think in HTTP.
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
}

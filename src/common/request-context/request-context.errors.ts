import { type ErrorCode, errorCodes, PlatformError } from '../errors/platform-error.js';

/** Refusals that depend on who the caller is rather than on a module's rules (see owner-member.ts). */
export const RequestContextErrorCode = errorCodes({
  OwnerMemberRequired: ['owner_member_required', 403],
});
export type RequestContextErrorCode = ErrorCode<typeof RequestContextErrorCode>;

export class RequestContextError extends PlatformError.of(RequestContextErrorCode) {
  /** An API key or OAuth access token tried an owner-only act: `what` says which, `credential` the kind of caller. */
  static ownerMemberRequired(what: string, credential: string): RequestContextError {
    return new RequestContextError(
      RequestContextErrorCode.OwnerMemberRequired,
      `Only an owner signed in to the portal may ${what}: no API key or access token may, whoever created it`,
      { body: { credential } },
    );
  }
}

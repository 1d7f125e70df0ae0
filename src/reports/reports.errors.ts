import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const ReportsErrorCode = errorCodes({
  MemberRequired: ['report_member_required', 403],
});
export type ReportsErrorCode = ErrorCode<typeof ReportsErrorCode>;

export class ReportsError extends PlatformError.of(ReportsErrorCode) {
  static memberRequired(): ReportsError {
    return new ReportsError(
      ReportsErrorCode.MemberRequired,
      'E-mail reports belong to a member: call with a portal session or an API key a member made (not a service account or the operator’s key)',
    );
  }
}

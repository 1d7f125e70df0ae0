import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const BillingErrorCode = errorCodes({
  QuotaExceeded: ['quota_exceeded', 402],
  UnknownPlan: ['unknown_plan', 400],
});
export type BillingErrorCode = ErrorCode<typeof BillingErrorCode>;

export class BillingError extends PlatformError.of(BillingErrorCode) {
  /** `used`: what counts already (recorded and reserved); `wanted`: what the refused request needed. */
  static quotaExceeded(meter: string, included: number, renewsOn: string, used = included, wanted = 1): BillingError {
    const left = Math.max(0, included - used);
    // Room left, but less than this request may use (a generation holds its maxTokens and its prompt): say so, or it reads like a bug.
    const message =
      left > 0
        ? `The ${meter} quota of your plan (${included} a month) has ${left} left, less than the ${wanted} this request may use; it renews on ${renewsOn}.`
        : `The ${meter} quota of your plan (${included} a month) is used up; it renews on ${renewsOn}.`;
    return new BillingError(BillingErrorCode.QuotaExceeded, message);
  }

  static unknownPlan(plan: string, known: string[]): BillingError {
    return new BillingError(BillingErrorCode.UnknownPlan, `plan "${plan}" does not exist; this server has ${known.join(', ')}`);
  }
}

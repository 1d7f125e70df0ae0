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

  /** The plan's hard `storage.bytes` quota has no room for a file of `wanted` bytes (`used`: kept and held). */
  static storageFull(included: number, used: number, wanted: number): BillingError {
    const left = Math.max(0, included - used);
    const state = left > 0 ? `has ${readable(left)} left, less than this file's ${readable(wanted)}` : 'is full';
    return new BillingError(
      BillingErrorCode.QuotaExceeded,
      `The storage.bytes quota of your plan (${readable(included)}) ${state}. Files no deployment references are deleted 24 h after their last upload, and deleting an app deletes the files only it used.`,
    );
  }

  static unknownPlan(plan: string, known: string[]): BillingError {
    return new BillingError(BillingErrorCode.UnknownPlan, `plan "${plan}" does not exist; this server has ${known.join(', ')}`);
  }
}

/** Bytes as people read them: `812 bytes`, `1.5 MiB`, `2 GiB` (powers of 1,024, one decimal at most). */
function readable(bytes: number): string {
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  if (bytes < 1024) return `${bytes} bytes`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

import { PlatformError } from '../common/errors/platform-error.js';

export enum BillingErrorCode {
  QuotaExceeded = 'quota_exceeded',
  UnknownPlan = 'unknown_plan',
}

export class BillingError extends PlatformError<BillingErrorCode> {
  protected readonly statuses = {
    [BillingErrorCode.QuotaExceeded]: 402,
    [BillingErrorCode.UnknownPlan]: 400,
  };

  static quotaExceeded(meter: string, included: number, renewsOn: string): BillingError {
    return new BillingError(BillingErrorCode.QuotaExceeded, `The ${meter} quota of your plan (${included} a month) is used up; it renews on ${renewsOn}.`);
  }

  static unknownPlan(plan: string, known: string[]): BillingError {
    return new BillingError(BillingErrorCode.UnknownPlan, `plan "${plan}" does not exist; this server has ${known.join(', ')}`);
  }
}

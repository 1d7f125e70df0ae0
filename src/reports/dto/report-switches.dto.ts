import { IsBoolean, IsOptional } from 'class-validator';

/** The calling member's e-mail reports of one app. */
export class ReportSwitchesDto {
  /** The weekly report: sent Mondays, of the previous ISO week (Monday to Sunday, UTC). @example true */
  weekly: boolean;

  /** The monthly report: sent on the 1st, of the previous calendar month (UTC). @example false */
  monthly: boolean;
}

/** What to change: a switch left out stays as it is. */
export class UpdateReportSwitchesDto {
  /** @example true */
  @IsOptional()
  @IsBoolean({ message: 'weekly must be true or false' })
  weekly?: boolean;

  /** @example false */
  @IsOptional()
  @IsBoolean({ message: 'monthly must be true or false' })
  monthly?: boolean;
}

/** What the operator's trigger did. */
export class SentReportsDto {
  /** Reports the SMTP server took in this run. @example 3 */
  sent: number;

  /** Reports the SMTP server refused or could not take: tried again at the next run (at most 5 tries each). @example 0 */
  failed: number;

  /** Reports another worker is sending at this moment. @example 0 */
  skipped: number;
}

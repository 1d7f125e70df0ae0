import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { PageOf } from '../../common/pagination/page-of.js';
import { METERS } from '../plans.js';

export class PlanRefDto {
  /** @example pro */
  id: string;
  /** @example Pro */
  name: string;
}

export class PeriodDto {
  /** First day of the month (UTC). @example 2026-11-01 */
  start: string;
  /** First day of the next month (exclusive). @example 2026-12-01 */
  end: string;
}

export class MeterUsageDto {
  @ApiProperty({ enum: METERS, example: 'ai.tokens' })
  meter: string;
  /** @example 81234 */
  used: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Included each month; null: unlimited', example: 100000 })
  included: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'used ÷ included, one decimal; null when unlimited', example: 81.2 })
  percent: number | null;
  /** Past `included`, metered requests answer 402 (otherwise overage is billed). @example true */
  hard: boolean;
  /** `functions.duration_ms` only: the memory limit of each function instance (MiB), beside the wall time it is billed by. @example 128 */
  memoryMb?: number;
}

export class BillingDto {
  plan: PlanRefDto;
  period: PeriodDto;
  @ApiProperty({ type: [MeterUsageDto] })
  usage: MeterUsageDto[];
}

export class StatementLineDto {
  /** A meter, or `plan` for the plan's monthly price. @example ai.tokens */
  meter: string;
  /** @example 2300000 */
  quantity: number;
  @ApiProperty({ type: Number, nullable: true, example: 2000000 })
  included: number | null;
  /** @example 300000 */
  overage: number;
  /** Cents per block of `unitSize` units of overage. @example 2 */
  unitPriceCents: number;
  /** @example 1000 */
  unitSize: number;
  /** @example 600 */
  amountCents: number;
  /** `functions.duration_ms` only: the memory limit of each function instance (MiB) the duration ran with. @example 128 */
  memoryMb?: number;
}

export class StatementDto {
  /** @example st_3kTMd7PlUb2cQx9Vz1wYhR8e */
  id: string;
  period: PeriodDto;
  plan: PlanRefDto;
  @ApiProperty({ type: [StatementLineDto] })
  lines: StatementLineDto[];
  /** @example 2600 */
  totalCents: number;
  @ApiProperty({ enum: ['usd'], example: 'usd' })
  currency: 'usd';
  @ApiProperty({ enum: ['open', 'closed'], example: 'closed' })
  status: 'open' | 'closed';
}

export class StatementPageDto extends PageOf(StatementDto) {}

export class ChangePlanDto {
  /** A plan of this server: `free`, `pro`, `enterprise`, or one PLANS_FILE adds. @example pro */
  @IsString()
  @MaxLength(40)
  plan: string;
}

export class AdminAccountDto extends BillingDto {
  /** @example acc_01JC3Z7Y2X0W9V8U7T6S5R4Q3P */
  accountId: string;
  /** @example dev@example.com */
  email: string;
  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;
}

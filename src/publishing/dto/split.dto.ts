import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';

export class SplitVariantInputDto {
  /** A `production` deployment of the app. @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
  @IsString()
  @MaxLength(40)
  deploymentId: string;

  /** Its share of visitors, in percent (the weights of a test sum to 100). @example 50 */
  @IsInt()
  @Min(1)
  @Max(99)
  weight: number;
}

export class StartSplitDto {
  /** 2 to 4 variants, weights summing to 100; the first is the one the others are compared with. */
  @ApiProperty({
    type: [SplitVariantInputDto],
    minItems: 2,
    maxItems: 4,
    example: [
      { deploymentId: 'dep_01JC3Z9A7B2C4D6E8F0G1H2J3K', weight: 50 },
      { deploymentId: 'dep_01JC40B2D4F6H8K0M2P4R6T8VW', weight: 50 },
    ],
  })
  @IsArray()
  @ArrayMinSize(2)
  @ArrayMaxSize(4)
  @ValidateNested({ each: true })
  @Type(() => SplitVariantInputDto)
  variants: SplitVariantInputDto[];
}

export class SplitVariantDto {
  /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
  deploymentId: string;
  /** @example 50 */
  weight: number;
}

/** A test as started (`PUT`): its variants and when it began. */
export class SplitDto {
  /** @example spl_01JC41C3E5G7J9L1N3Q5S7U9WX */
  id: string;
  @ApiProperty({ type: [SplitVariantDto] })
  variants: SplitVariantDto[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-29T09:00:00.000Z' })
  startedAt: string;
}

export class SplitVariantResultsDto extends SplitVariantDto {
  /** Distinct visitors (per day: visitor ids are daily) of this deployment since the test's start (`startedAt`). @example 1204 */
  visitors: number;
  /** Sign-ups through this deployment's form since the test's start (`startedAt`). @example 61 */
  signups: number;
  /** `signups` / `visitors`, in percent with one decimal (0 without visitors). @example 5.1 */
  conversionRate: number;
  /**
   * The probability (0–1, four decimals) that this variant converts better than the first: the normal CDF of the
   * two-proportion z statistic against the first variant. Null (the portal shows —) for the first
   * variant itself and whenever it cannot be computed: either has no visitors, or the pooled rate is 0 or 1 (no sign-ups yet, or all signed up).
   */
  @ApiProperty({ type: Number, nullable: true, example: 0.8413 })
  chanceToBeatFirst: number | null;
}

/** The running test with each variant's results so far. */
export class SplitResultsDto {
  /** @example spl_01JC41C3E5G7J9L1N3Q5S7U9WX */
  id: string;
  @ApiProperty({ type: [SplitVariantResultsDto] })
  variants: SplitVariantResultsDto[];
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-29T09:00:00.000Z' })
  startedAt: string;
}

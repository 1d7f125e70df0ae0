import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../page.js';

/** `?limit=&cursor=` of every list route. Extend it for routes with filters. */
export class PageQueryDto {
  /**
   * Items per page, 1–100.
   * @example 20
   */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(MAX_PAGE_LIMIT, { message: 'limit must be an integer from 1 to 100' })
  limit?: number = DEFAULT_PAGE_LIMIT;

  /** The `nextCursor` of the previous page, unchanged. Omit for the first page. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}

import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';

export class LogLineDto {
  /** @example 2026-11-29T10:00:00.120Z */
  at: string;

  @ApiProperty({ enum: ['debug', 'info', 'warn', 'error', 'request', 'system'], example: 'request' })
  level: string;

  /** @example GET /api/notes 200 4ms */
  message: string;
}

export class LogLineListDto {
  @ApiProperty({ type: [LogLineDto] })
  data: LogLineDto[];
}

/** `?since=&limit=&follow=` of the logs route. */
export class LogsQueryDto {
  /** Only lines after this time. @example 2026-11-29T10:00:00Z */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 time (2026-11-29T10:00:00Z)' })
  since?: string;

  /** The newest lines, 1–1000. @example 100 */
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer from 1 to 1000' })
  @Min(1, { message: 'limit must be an integer from 1 to 1000' })
  @Max(1000, { message: 'limit must be an integer from 1 to 1000' })
  limit?: number;

  /** `true`: a server-sent event stream of the new lines. */
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'follow must be true or false' })
  follow?: 'true' | 'false';
}

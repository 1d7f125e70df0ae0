import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/dto/page-query.dto.js';
import { PageOf } from '../../common/pagination/page-of.js';
import { MAX_EMAIL_LENGTH, normaliseEmail } from '../email.js';

const normalised = ({ value }: { value: unknown }) => (typeof value === 'string' ? normaliseEmail(value) : value);

export class CreateUserDto {
  /**
   * The app the person signs up to: one of your apps.
   * @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H
   */
  @IsString()
  @IsNotEmpty()
  appId: string;

  /**
   * Trimmed and lowercased before it is checked and stored; unique per app.
   * @example ada@example.com
   */
  @Transform(normalised)
  @IsString()
  @MaxLength(MAX_EMAIL_LENGTH, { message: `email must be at most ${MAX_EMAIL_LENGTH} characters long` })
  @IsEmail({}, { message: 'email must be an e-mail address' })
  email: string;
}

export class ListUsersQueryDto extends PageQueryDto {
  /**
   * Only this app's users. Without it: the users of every app of the account.
   * @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H
   */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  appId?: string;
}

export class UserDto {
  /** @example usr_01JC3ZB4N6P8Q0R2S4T6V8W0XY */
  id: string;

  /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  appId: string;

  /** @example ada@example.com */
  email: string;

  @ApiProperty({ type: String, format: 'date-time', example: '2025-11-22T04:22:00.000Z' })
  createdAt: string;
}

export class UserPageDto extends PageOf(UserDto) {}

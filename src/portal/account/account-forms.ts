import { plainToInstance } from 'class-transformer';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength, registerDecorator, validateSync, type ValidationArguments } from 'class-validator';
import { MIN_PASSWORD_LENGTH } from '../portal-auth.service.js';

/** The longest password taken (scrypt hashes it whole; a longer one is a mistake or an attack on the CPU). */
export const MAX_PASSWORD_LENGTH = 1024;

/** The field must equal another of the form (a password typed twice). */
function SameAs(other: string, message: string): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'sameAs',
      target: target.constructor,
      propertyName: String(key),
      options: { message },
      validator: { validate: (value: unknown, args: ValidationArguments) => value === (args.object as Record<string, unknown>)[other] },
    });
}

/** A new password as every portal form takes it: at least 12 characters, typed twice alike. */
export class NewPasswordForm {
  @IsString({ message: 'Enter a new password.' })
  @MinLength(MIN_PASSWORD_LENGTH, { message: `The password must be at least ${MIN_PASSWORD_LENGTH} characters long.` })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: `The password must be at most ${MAX_PASSWORD_LENGTH} characters long.` })
  password!: string;

  @SameAs('password', 'The two passwords differ.')
  confirm!: string;
}

export class ChangePasswordForm extends NewPasswordForm {
  @IsString({ message: 'Enter your current password.' })
  @IsNotEmpty({ message: 'Enter your current password.' })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: 'That is not your current password.' })
  current!: string;
}

/** The password typed again to confirm it is the member (sudo mode); `return`, the page to go back to, is read on its own. */
export class ConfirmPasswordForm {
  @IsString({ message: 'Enter your password.' })
  @IsNotEmpty({ message: 'Enter your password.' })
  @MaxLength(MAX_PASSWORD_LENGTH, { message: 'That is not your password.' })
  password!: string;
}

export class ForgotPasswordForm {
  @IsEmail({}, { message: 'Enter the e-mail address you sign in with.' })
  @MaxLength(320, { message: 'Enter the e-mail address you sign in with.' })
  email!: string;
}

/** A form's fields by name, or the first problem of each bad field (shown next to it). */
export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: Partial<Record<keyof T & string, string>>; value: Partial<T> };

/** Validates a posted form against its class: every field must be one string (a repeated field is a bad one). */
export function validateForm<T extends object>(type: new () => T, body: unknown): FormResult<T> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) if (name !== '_csrf') fields[name] = value;
  const value = plainToInstance(type, fields);
  const errors: Record<string, string> = {};
  for (const error of validateSync(value, { stopAtFirstError: true })) {
    const first = Object.values(error.constraints ?? {})[0];
    if (first) errors[error.property] = first;
  }
  return Object.keys(errors).length === 0 ? { ok: true, value } : { ok: false, errors: errors as Partial<Record<keyof T & string, string>>, value };
}

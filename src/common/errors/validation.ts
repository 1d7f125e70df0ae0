import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** Flattens nested class-validator errors into "field must …" sentences, naming every bad field. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((m) =>
      parent ? m.replace(new RegExp(`^${error.property}\\b`), path) : m,
    );
    return own.concat(flattenValidationErrors(error.children ?? [], path));
  });
}

export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => {
      const details = flattenValidationErrors(errors);
      return new BadRequestException({ message: details.join('; '), details });
    },
  });
}

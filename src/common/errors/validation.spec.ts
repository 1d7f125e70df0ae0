import { ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { PageQueryDto } from '../pagination/dto/page-query.dto.js';
import { RequestError } from './request-errors.js';
import { createValidationPipe } from './validation.js';

const asQuery: ArgumentMetadata = { type: 'query', metatype: PageQueryDto };

describe('the validation pipe', () => {
  it('answers a query it has seen with an equal DTO of its own, never the remembered one', async () => {
    const pipe = createValidationPipe();
    const first = (await pipe.transform({ limit: '5' }, asQuery)) as PageQueryDto;
    const second = (await pipe.transform({ limit: '5' }, asQuery)) as PageQueryDto;
    expect(first).toBeInstanceOf(PageQueryDto);
    expect(second).toBeInstanceOf(PageQueryDto);
    expect(second).toEqual({ limit: 5 });
    expect(second).not.toBe(first);
    second.limit = 99; // a handler that changes its DTO changes nobody else's
    expect(await pipe.transform({ limit: '5' }, asQuery)).toEqual({ limit: 5 });
  });

  it('builds and checks each query once (class-transformer and class-validator are the costly part)', async () => {
    const pipe = createValidationPipe();
    const check = ValidationPipe.prototype.transform;
    let checks = 0;
    ValidationPipe.prototype.transform = function (this: ValidationPipe, ...args: Parameters<ValidationPipe['transform']>) {
      checks++;
      return check.apply(this, args);
    };
    try {
      for (let i = 0; i < 3; i++) await pipe.transform({ limit: '5' }, asQuery);
      await pipe.transform({ limit: '6' }, asQuery);
      expect(checks).toBe(2);
      await pipe.transform({ name: 'x' }, { type: 'body', metatype: Object }); // bodies go through every time
      await pipe.transform({ name: 'x' }, { type: 'body', metatype: Object });
      expect(checks).toBe(4);
    } finally {
      ValidationPipe.prototype.transform = check;
    }
  });

  it('tells queries apart by every value', async () => {
    const pipe = createValidationPipe();
    expect(await pipe.transform({ limit: '5' }, asQuery)).toEqual({ limit: 5 });
    expect(await pipe.transform({ limit: '7' }, asQuery)).toEqual({ limit: 7 });
    expect(await pipe.transform({ limit: '5', cursor: 'abc' }, asQuery)).toEqual({ limit: 5, cursor: 'abc' });
    expect(await pipe.transform({}, asQuery)).toEqual({ limit: 20 });
  });

  it('refuses a bad query every time it is asked', async () => {
    const pipe = createValidationPipe();
    await pipe.transform({ limit: '5' }, asQuery);
    for (let i = 0; i < 2; i++) {
      await expect(pipe.transform({ limit: '500' }, asQuery)).rejects.toThrow('limit must be an integer from 1 to 100');
      await expect(pipe.transform({ limit: '5', extra: 'x' }, asQuery)).rejects.toBeInstanceOf(RequestError);
    }
  });

  it('lists the first 20 problems and says how many more there were', async () => {
    const unknown = Object.fromEntries(Array.from({ length: 57 }, (_, i) => [`extra${i}`, 'x']));
    const error = (await createValidationPipe()
      .transform(unknown, { type: 'body', metatype: PageQueryDto })
      .catch((e: unknown) => e)) as RequestError;
    expect(error).toBeInstanceOf(RequestError);
    expect(error.status).toBe(400);
    expect(error.reason).toBe('invalid_parameter');
    const details = error.extras.body?.details as string[];
    expect(details).toHaveLength(20);
    expect(details[0]).toBe('property extra0 should not exist');
    expect(error.message).toBe(`${details.join('; ')}; and 37 more`);
  });
});

/**
 * Body fields kept out of class-transformer and class-validator, handed to the service as sent
 * (`unknown` in spirit) for it to validate in one pass: a deploy's `files` map holds up to 20,000
 * keys, and class-transformer's key handling is quadratic in an object's keys. The validation pipe
 * lifts them off the body before transforming it and puts them back on the DTO after.
 */
const HAND_VALIDATED = new WeakMap<object, string[]>();

export function ValidatedByHand(): PropertyDecorator {
  return (target, key) => {
    HAND_VALIDATED.set(target.constructor, [...(HAND_VALIDATED.get(target.constructor) ?? []), String(key)]);
  };
}

/** The hand-validated fields of a DTO class (its own and its parents'). */
export function handValidatedFields(dtoClass: object): string[] {
  const fields: string[] = [];
  for (let c: object | null = dtoClass; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as object | null)
    fields.push(...(HAND_VALIDATED.get(c) ?? []));
  return fields;
}

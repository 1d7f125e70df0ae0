import { type ErrorCode, errorCodes, PlatformError } from './platform-error.js';

const ThingsErrorCode = errorCodes({ NotFound: ['thing_not_found', 404], Taken: ['thing_taken', 409] });
type ThingsErrorCode = ErrorCode<typeof ThingsErrorCode>;

class ThingsError extends PlatformError.of(ThingsErrorCode) {
  static taken(): ThingsError {
    return new ThingsError(ThingsErrorCode.Taken, 'taken', { headers: { 'retry-after': '1' } });
  }
}

describe('errorCodes and PlatformError.of', () => {
  it('reads like an enum of reasons, each code written once with its status', () => {
    expect(ThingsErrorCode).toEqual({ NotFound: 'thing_not_found', Taken: 'thing_taken' });
    expect(Object.isFrozen(ThingsErrorCode)).toBe(true);
    const reason: ThingsErrorCode = ThingsErrorCode.NotFound;
    expect(reason).toBe('thing_not_found');
  });

  it("gives each module's error its status, name, reason and extras", () => {
    const error = ThingsError.taken();
    expect(error).toBeInstanceOf(ThingsError);
    expect(error).toBeInstanceOf(PlatformError);
    expect({ name: error.name, reason: error.reason, status: error.status, message: error.message, extras: error.extras }).toEqual({
      name: 'ThingsError',
      reason: 'thing_taken',
      status: 409,
      message: 'taken',
      extras: { headers: { 'retry-after': '1' } },
    });
    expect(new ThingsError(ThingsErrorCode.NotFound, 'gone').status).toBe(404);
  });

  it('refuses codes errorCodes did not make', () => {
    expect(() => PlatformError.of({ NotFound: 'x' })).toThrow('PlatformError.of takes the codes errorCodes() made');
  });
});

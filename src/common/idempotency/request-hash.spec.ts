import { canonicalJson, IDEMPOTENCY_KEY_PATTERN, requestBodyHash } from './request-hash.js';

describe('request hash', () => {
  it('ignores key order, at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"x":2,"y":1}]},"b":1}');
    expect(requestBodyHash({ appId: 'app_1', env: 'production' })).toBe(requestBodyHash({ env: 'production', appId: 'app_1' }));
  });

  it('tells different bodies apart', () => {
    expect(requestBodyHash({ appId: 'app_1', env: 'production' })).not.toBe(requestBodyHash({ appId: 'app_1', env: 'staging' }));
    expect(requestBodyHash(undefined)).not.toBe(requestBodyHash({}));
    expect(requestBodyHash({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts keys of 1-255 visible ASCII characters', () => {
    expect(IDEMPOTENCY_KEY_PATTERN.test('0b6b7a1e-3c1f-4a57-9f5e-6a2d0c1b9e11')).toBe(true);
    expect(IDEMPOTENCY_KEY_PATTERN.test('x'.repeat(255))).toBe(true);
    expect(IDEMPOTENCY_KEY_PATTERN.test('x'.repeat(256))).toBe(false);
    expect(IDEMPOTENCY_KEY_PATTERN.test('')).toBe(false);
    expect(IDEMPOTENCY_KEY_PATTERN.test('has space')).toBe(false);
    expect(IDEMPOTENCY_KEY_PATTERN.test('é')).toBe(false);
  });
});

import { cookieOf } from './cookies.js';

describe('cookieOf', () => {
  it('reads one cookie, decoded', () => {
    expect(cookieOf('theme=dark; portal_session=abc%2Fdef', 'portal_session')).toBe('abc/def');
    expect(cookieOf('theme=dark', 'portal_session')).toBeUndefined();
    expect(cookieOf(undefined, 'portal_session')).toBeUndefined();
  });

  it('treats a value that does not decode as absent, never throws', () => {
    for (const broken of ['%', '%zz', 'abc%', '%E0%A4%A']) expect(cookieOf(`portal_session=${broken}`, 'portal_session')).toBeUndefined();
    // A broken copy does not hide a good one.
    expect(cookieOf('portal_session=%; portal_session=abc', 'portal_session')).toBe('abc');
  });
});

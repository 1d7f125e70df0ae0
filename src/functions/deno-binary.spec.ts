import { denoPackageName } from './deno-binary.js';

describe('denoPackageName', () => {
  it('names the optional package that holds this platform’s binary', () => {
    expect(denoPackageName('linux', 'x64', true)).toBe('@deno/linux-x64-glibc');
    expect(denoPackageName('linux', 'arm64', true)).toBe('@deno/linux-arm64-glibc');
    expect(denoPackageName('darwin', 'arm64', false)).toBe('@deno/darwin-arm64');
  });

  it('says what is missing where Deno has no build', () => {
    expect(() => denoPackageName('linux', 'x64', false)).toThrow('glibc');
    expect(() => denoPackageName('linux', 'ia32', true)).toThrow('x64 and arm64 only');
    expect(() => denoPackageName('freebsd', 'x64', true)).toThrow('no build for freebsd');
  });
});

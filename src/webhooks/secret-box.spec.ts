import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const secret = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('encrypts, and reads its own output back', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal(secret);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(sealed).not.toContain(secret);
    expect(sealed.length).toBeLessThanOrEqual(200);
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed);
  });

  it('reads secrets stored in plain by older versions', () => {
    expect(SecretBox.isSealed(secret)).toBe(false);
    expect(new SecretBox('k'.repeat(32)).open(secret)).toBe(secret);
  });

  it('refuses a short key, and a wrong one', () => {
    expect(() => new SecretBox('')).toThrow(/32 characters/);
    const sealed = new SecretBox('k'.repeat(32)).seal(secret);
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
  });
});

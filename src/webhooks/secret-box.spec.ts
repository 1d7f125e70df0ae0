import { SecretBox } from './secret-box.js';

describe('SecretBox', () => {
  const secret = 'whsec_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('encrypts with a key, and reads its own output back', () => {
    const box = new SecretBox('k'.repeat(32));
    const sealed = box.seal(secret);
    expect(sealed).toMatch(/^enc:v1:/);
    expect(sealed).not.toContain(secret);
    expect(sealed.length).toBeLessThanOrEqual(200);
    expect(box.open(sealed)).toBe(secret);
    expect(box.seal(secret)).not.toBe(sealed);
  });

  it('stores in plain without a key, and reads plain rows with or without one', () => {
    expect(new SecretBox('').seal(secret)).toBe(secret);
    expect(new SecretBox('k'.repeat(32)).open(secret)).toBe(secret);
  });

  it('refuses a wrong key or a missing one', () => {
    const sealed = new SecretBox('k'.repeat(32)).seal(secret);
    expect(() => new SecretBox('x'.repeat(32)).open(sealed)).toThrow();
    expect(() => new SecretBox('').open(sealed)).toThrow(/WEBHOOK_SECRET_KEY/);
  });
});

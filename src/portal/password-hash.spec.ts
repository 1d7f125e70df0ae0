import { AppConfig } from '../config/app-config.js';
import { hashPassword, PasswordHasher, verifyPassword } from './password-hash.js';

describe('PasswordHasher', () => {
  const hasher = (cost: number) => new PasswordHasher(Object.assign(new AppConfig(), { PASSWORD_HASH_COST: cost }));

  it('hashes at N = 2^PASSWORD_HASH_COST, recorded in the hash, and verifies only the same password', async () => {
    const stored = await hasher(11).hash('correct horse');
    expect(stored).toMatch(/^scrypt\$2048\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(await hasher(11).verify('correct horse', stored)).toBe(true);
    expect(await hasher(11).verify('correct horsE', stored)).toBe(false);
  });

  it('verifies a hash made at another cost (a changed setting keeps the passwords set before it)', async () => {
    const before = await hashPassword('kept password', 10);
    expect(await hasher(12).verify('kept password', before)).toBe(true);
    expect(await verifyPassword('kept password', before)).toBe(true);
  });

  it('calls a hash made at another cost outdated, one made at its own not', async () => {
    const at10 = await hashPassword('kept password', 10);
    expect(hasher(10).isOutdated(at10)).toBe(false);
    expect(hasher(12).isOutdated(at10)).toBe(true);
    expect(hasher(10).isOutdated(at10.replace('$8$1$', '$8$2$'))).toBe(true);
  });

  it('has a hash of nothing at its own cost for unknown addresses, which no password opens', async () => {
    const unknown = hasher(12).unknownHash;
    expect(unknown.split('$')[1]).toBe(String(2 ** 12));
    expect(await hasher(12).verify('', unknown)).toBe(false);
    expect(await hasher(12).verify('AAAAAAAA', unknown)).toBe(false);
  });

  it('refuses what is not one of its hashes', async () => {
    expect(await verifyPassword('x', 'bcrypt$10$abc')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1024$8$1$')).toBe(false);
  });
});

import { requireOwnerMember } from './owner-member.js';
import type { Principal } from './principal.js';
import { type Role, roleWithin } from './roles.js';

const principal = (kind: Principal['kind'], role?: Role | null): Principal => ({
  accountId: 'acc_1',
  credentialId: kind === 'portal_session' ? 'portal' : 'key_1',
  kind,
  scopes: ['*'],
  ...(role === undefined ? {} : { member: { id: 'mem_1', role } }),
});
const refuseRole = (role: Role | null) => new Error(`role ${role ?? 'none'}`);

describe('requireOwnerMember', () => {
  it('lets an owner signed in to the portal act', () => {
    expect(() => requireOwnerMember(principal('portal_session', 'owner'), 'owners:manage', refuseRole)).not.toThrow();
    expect(() => requireOwnerMember(principal('portal_session', 'owner'), 'account:delete', refuseRole)).not.toThrow();
  });

  it('refuses every credential, an owner-made one and one no member made alike: 403 owner_member_required naming the kind', () => {
    for (const [kind, role] of [
      ['api_key', 'owner'],
      ['api_key', undefined],
      ['access_token', 'owner'],
      ['access_token', undefined],
    ] as const) {
      expect(() => requireOwnerMember(principal(kind, role), 'owners:manage', refuseRole)).toThrow(
        expect.objectContaining({ reason: 'owner_member_required', status: 403, extras: { body: { credential: kind } } }),
      );
    }
    expect(() => requireOwnerMember(principal('api_key', 'owner'), 'account:delete', refuseRole)).toThrow('may delete the account:');
  });

  it("answers a portal session of another role, or of a removed member, with the module's own refusal", () => {
    expect(() => requireOwnerMember(principal('portal_session', 'admin'), 'owners:manage', refuseRole)).toThrow('role admin');
    expect(() => requireOwnerMember(principal('portal_session', null), 'owners:manage', refuseRole)).toThrow('role none');
    expect(() => requireOwnerMember(principal('portal_session'), 'owners:manage', refuseRole)).toThrow(
      expect.objectContaining({ reason: 'owner_member_required' }),
    );
  });
});

describe('roleWithin', () => {
  it('holds for the same role and those below it, not above', () => {
    expect(roleWithin('admin', 'admin')).toBe(true);
    expect(roleWithin('viewer', 'developer')).toBe(true);
    expect(roleWithin('owner', 'admin')).toBe(false);
    expect(roleWithin('admin', 'developer')).toBe(false);
    expect(roleWithin('developer', 'owner')).toBe(true);
  });
});

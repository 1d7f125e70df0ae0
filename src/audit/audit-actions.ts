/** Every action the audit log records, and the kind of thing each one acts on. */
export const AUDIT_ACTIONS = {
  'sign_in.succeeded': 'member',
  'sign_in.failed': 'member',
  'sign_in.locked': 'member',
  'mfa.enrolled': 'member',
  'mfa.removed': 'member',
  'mfa.policy_changed': 'account',
  'sso.configured': 'account',
  'sso.removed': 'account',
  'member.invited': 'invitation',
  'member.invitation_revoked': 'invitation',
  'member.joined': 'member',
  'member.role_changed': 'member',
  'member.removed': 'member',
  'api_key.created': 'api_key',
  'api_key.revoked': 'api_key',
  'service_account.created': 'service_account',
  'service_account.revoked': 'service_account',
  'webhook_endpoint.created': 'webhook_endpoint',
  'webhook_endpoint.updated': 'webhook_endpoint',
  'webhook_endpoint.deleted': 'webhook_endpoint',
  'webhook_endpoint.secret_rotated': 'webhook_endpoint',
  'plan.changed': 'account',
  'app.deleted': 'app',
  'domain.added': 'domain',
  'domain.verified': 'domain',
  'domain.deleted': 'domain',
  'users.exported': 'app',
  'user.erased': 'user',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

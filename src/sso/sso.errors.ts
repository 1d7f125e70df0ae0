import { type ErrorCode, errorCodes, PlatformError } from '../common/errors/platform-error.js';

export const SsoErrorCode = errorCodes({
  NotConfigured: ['sso_not_configured', 404],
  IssuerInsecure: ['sso_issuer_insecure', 400],
  IssuerPrivate: ['sso_issuer_private', 400],
  DiscoveryFailed: ['sso_discovery_failed', 422],
  SecretRequired: ['sso_client_secret_required', 400],
  DomainTaken: ['sso_domain_taken', 409],
  DomainPublic: ['sso_domain_public', 400],
  UnknownDomain: ['sso_domain_unknown', 404],
  FlowExpired: ['sso_flow_expired', 400],
  StateMismatch: ['sso_state_mismatch', 400],
  ProviderError: ['sso_provider_error', 400],
  TokenRejected: ['sso_token_rejected', 401],
  EmailNotVerified: ['sso_email_not_verified', 403],
  EmailOutsideDomains: ['sso_email_outside_domains', 403],
  OtherAccount: ['sso_email_other_account', 409],
  OwnersOnly: ['sso_owners_only', 403],
  IdentityMismatch: ['sso_identity_mismatch', 403],
  EmailNotAscii: ['sso_email_not_ascii', 403],
  DomainNotListed: ['sso_domain_not_listed', 404],
});
export type SsoErrorCode = ErrorCode<typeof SsoErrorCode>;

/** OpenID Connect single sign-on: its settings and a sign-in through the account's provider. Messages never carry an e-mail address. */
export class SsoError extends PlatformError.of(SsoErrorCode) {
  static notConfigured(): SsoError {
    return new SsoError(SsoErrorCode.NotConfigured, 'Single sign-on is not set up for this account');
  }

  static issuerInsecure(): SsoError {
    return new SsoError(
      SsoErrorCode.IssuerInsecure,
      'issuer must be an https URL without credentials (plain http only for a provider on this machine, when the operator sets SSO_ALLOW_INSECURE_LOOPBACK=true)',
    );
  }

  static issuerPrivate(): SsoError {
    return new SsoError(
      SsoErrorCode.IssuerPrivate,
      'issuer must not point to a private, loopback, link-local or reserved address (allowed only when the operator sets SSO_ALLOW_INSECURE_LOOPBACK=true, for development)',
    );
  }

  static discoveryFailed(): SsoError {
    return new SsoError(
      SsoErrorCode.DiscoveryFailed,
      "The issuer's OpenID configuration could not be read: check that <issuer>/.well-known/openid-configuration answers over https and names this issuer",
    );
  }

  static secretRequired(): SsoError {
    return new SsoError(
      SsoErrorCode.SecretRequired,
      'clientSecret is required when single sign-on is set up the first time, and whenever issuer or clientId changes (the stored secret is never sent elsewhere)',
    );
  }

  static domainTaken(domain: string): SsoError {
    return new SsoError(SsoErrorCode.DomainTaken, `The domain ${domain} is a proven domain of another account's single sign-on already`);
  }

  static domainPublic(domain: string): SsoError {
    return new SsoError(
      SsoErrorCode.DomainPublic,
      `The domain ${domain} is a public mail provider's: anyone can have an address there, so no account's single sign-on may claim it`,
    );
  }

  static domainNotListed(domain: string): SsoError {
    return new SsoError(SsoErrorCode.DomainNotListed, `${domain} is not one of the domains of this account's single sign-on`);
  }

  static domainProvenByOther(domain: string): SsoError {
    return new SsoError(SsoErrorCode.DomainTaken, `The domain ${domain} was proven by another account first; its single sign-on routes that domain's sign-ins`);
  }

  static unknownDomain(): SsoError {
    return new SsoError(SsoErrorCode.UnknownDomain, 'No account signs in with single sign-on for this e-mail domain');
  }

  static flowExpired(): SsoError {
    return new SsoError(SsoErrorCode.FlowExpired, 'This sign-in was not started in this browser or took longer than 10 minutes: start again');
  }

  static stateMismatch(): SsoError {
    return new SsoError(SsoErrorCode.StateMismatch, 'The answer of the identity provider is not for the sign-in this browser started (state mismatch)');
  }

  static providerError(error: string): SsoError {
    return new SsoError(SsoErrorCode.ProviderError, `The identity provider refused the sign-in (${error})`);
  }

  static tokenRejected(detail: string): SsoError {
    return new SsoError(SsoErrorCode.TokenRejected, `The identity provider's ID token was refused: ${detail}`);
  }

  static emailNotVerified(linking = false): SsoError {
    if (linking)
      return new SsoError(
        SsoErrorCode.EmailNotVerified,
        'The identity provider does not say this e-mail address is verified (email_verified): an existing member is linked to single sign-on only through a verified address',
      );
    return new SsoError(SsoErrorCode.EmailNotVerified, 'The identity provider says this e-mail address is not verified');
  }

  static emailOutsideDomains(): SsoError {
    return new SsoError(SsoErrorCode.EmailOutsideDomains, "The e-mail address the identity provider gave is not in this account's allowed domains");
  }

  static ownersOnly(role: string): SsoError {
    return new SsoError(SsoErrorCode.OwnersOnly, `The role ${role} does not allow changing single sign-on: only an owner does`, { body: { role } });
  }

  static identityMismatch(): SsoError {
    return new SsoError(
      SsoErrorCode.IdentityMismatch,
      'This member signs in through another identity at the provider (its subject differs from the one linked at the first single sign-on): ask an owner',
    );
  }

  static emailNotAscii(): SsoError {
    return new SsoError(SsoErrorCode.EmailNotAscii, 'The e-mail address the identity provider gave is not plain ASCII: it is refused');
  }

  static otherAccount(): SsoError {
    return new SsoError(SsoErrorCode.OtherAccount, 'This e-mail address is a member of another account: it cannot join this one');
  }
}

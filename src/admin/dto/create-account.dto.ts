import { IsEmail, MaxLength } from 'class-validator';

export class CreateAccountDto {
  /** E-mail address of the developer who owns the account. @example dev@example.com */
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(320)
  email: string;
}

export class CreatedAccountDto {
  /** @example acc_01JC3Z8W5Q4M0B7T2K9X1D6F3H8R */
  accountId: string;

  /** @example dev@example.com */
  email: string;

  /** The account's first API key, with every scope (`*`). Shown only here: store it now. @example sk_7HqLx2cV0pR8sT4wY6zA1bC3dE5fG7hJ9kL0mN2x9Zc */
  apiKey: string;

  /**
   * Where the developer sets a portal password: single use, valid 7 days. Shown only here.
   * @example http://localhost:3000/portal/invite/q8V1mC0rX4Ue7tYb2NfK9sLwZ3aHjD6p
   */
  portalInviteUrl: string;
}

export class PortalInviteDto {
  /**
   * Where the developer sets a new portal password: single use, valid 7 days. Shown only here; the
   * account's earlier invite links stop working.
   * @example http://localhost:3000/portal/invite/q8V1mC0rX4Ue7tYb2NfK9sLwZ3aHjD6p
   */
  portalInviteUrl: string;
}

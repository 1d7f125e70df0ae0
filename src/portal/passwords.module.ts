import { Module } from '@nestjs/common';
import { PasswordHasher } from './password-hash.js';
import { SignInLockoutRepository } from './sign-in-lockout.repository.js';

/**
 * Passwords and their guesses: the one hasher and the lockout table, shared by the portal's sign-in and the shared
 * dashboards' password form (src/share), so both verify through one instance and count guesses in one table.
 */
@Module({
  providers: [PasswordHasher, SignInLockoutRepository],
  exports: [PasswordHasher, SignInLockoutRepository],
})
export class PasswordsModule {}

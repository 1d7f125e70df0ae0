import { Injectable } from '@nestjs/common';
import { truncatedIp } from '../common/client-network.js';
import { UnlockLinks } from './account/unlock-links.service.js';
import { sha256 } from './sha256.js';
import { ANY_NEW_NETWORK, SignInLockoutRepository } from './sign-in-lockout.repository.js';

/** Attempts per e-mail and client network per LOCKOUT_WINDOW_MS; a success there starts the count again. */
export const LOCKOUT_ATTEMPTS = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
/** Attempts per e-mail, from all the networks it has not signed in from together, per NEW_NETWORKS_WINDOW_MS. */
export const NEW_NETWORKS_ATTEMPTS = 20;
export const NEW_NETWORKS_WINDOW_MS = 60 * 60_000;
/** How long a network the e-mail signed in from stays one it "has signed in from". */
export const KNOWN_NETWORK_MS = 90 * 86_400_000;

/** Why an attempt was refused: this network's attempts at the e-mail, or those of the networks it has not signed in from. */
export type LockedBy = 'network' | 'new-networks';

/** An attempt counted (`locksIfWrong`: the lock a wrong password or code now sets), or refused before any check. */
export type Attempt = { locked: LockedBy } | { locked: false; locksIfWrong: LockedBy | null };

/**
 * The lockout against guessing a member's password (and their codes), per e-mail *and client
 * network* (the /24 or /48 the audit log keeps): 5 attempts in 15 minutes from one network lock that
 * e-mail there — not for a network that has not failed. Against guesses spread over many networks
 * (a botnet), the networks the e-mail has not signed in from share one count: 20 attempts an hour
 * from all of them together, then only networks it signed in from (in the last 90 days) may try.
 * So the owner, on a network they signed in from, with the right password, gets in (unless 5 wrong
 * attempts came from that network itself); a new network gets in once the hour has passed, or
 * through the unlock link e-mailed when a lock is met (UnlockLinks). Each attempt is counted before its password or code is checked, in one
 * statement with the check (SignInLockoutRepository.take): guesses sent in parallel, to any
 * instance, count like guesses sent one by one.
 */
@Injectable()
export class SignInLockout {
  constructor(
    private readonly attempts: SignInLockoutRepository,
    private readonly unlock: UnlockLinks,
  ) {}

  /** Counts an attempt at `email` from `ip`, before its password or code is checked; a refused one e-mails an unlock link (at most every 15 minutes). */
  async take(email: string, ip: string): Promise<Attempt> {
    const emailHash = hashOf(email);
    const network = truncatedIp(ip);
    const here = await this.attempts.take(emailHash, network, LOCKOUT_WINDOW_MS, LOCKOUT_ATTEMPTS);
    if (here === null) return this.refused(email, network, 'network');
    const lastHere = here >= LOCKOUT_ATTEMPTS ? 'network' : null;
    if (await this.attempts.isKnown(emailHash, network, KNOWN_NETWORK_MS)) return { locked: false, locksIfWrong: lastHere };
    const anywhere = await this.attempts.take(emailHash, ANY_NEW_NETWORK, NEW_NETWORKS_WINDOW_MS, NEW_NETWORKS_ATTEMPTS);
    if (anywhere === null) return this.refused(email, network, 'new-networks');
    return { locked: false, locksIfWrong: lastHere ?? (anywhere >= NEW_NETWORKS_ATTEMPTS ? 'new-networks' : null) };
  }

  /** The password or code of a counted attempt was wrong: answers the lock it set (then an unlock link is e-mailed), or null. */
  failed(email: string, ip: string, attempt: Attempt): LockedBy | null {
    if (attempt.locked) return attempt.locked;
    if (attempt.locksIfWrong) this.unlock.mailLater(email, truncatedIp(ip));
    return attempt.locksIfWrong;
  }

  /** The member signed in from `ip` (password, and code if they have MFA): that network's count starts again, and it is one they signed in from. */
  async succeeded(email: string, ip: string): Promise<void> {
    const emailHash = hashOf(email);
    const network = truncatedIp(ip);
    await this.attempts.clear(emailHash, network);
    await this.attempts.remember(emailHash, network, KNOWN_NETWORK_MS);
  }

  /** The member proved they own the mailbox (an unlock link): every count of the e-mail ends, and `ip`'s network counts as one they signed in from. */
  async unlocked(email: string, ip: string): Promise<void> {
    const emailHash = hashOf(email);
    await this.attempts.clearAll(emailHash);
    await this.attempts.remember(emailHash, truncatedIp(ip), KNOWN_NETWORK_MS);
  }

  /** A new password from a reset link: every count of the e-mail ends. */
  async reset(email: string): Promise<void> {
    await this.attempts.clearAll(hashOf(email));
  }

  /** Whether a lock's page can say an unlock link is on its way. */
  get mailsUnlockLinks(): boolean {
    return this.unlock.available;
  }

  private refused(email: string, network: string, by: LockedBy): Attempt {
    this.unlock.mailLater(email, network);
    return { locked: by };
  }
}

/** What a page says of a lock: why, for how long, and how it ends. `what`: what was typed wrong. */
export function lockedText(by: LockedBy, what: 'passwords' | 'codes', mailed: boolean): string {
  const why =
    by === 'network'
      ? `Too many wrong ${what} from your network: this e-mail is locked for 15 minutes on it.`
      : `Too many wrong ${what} for this e-mail from networks it has not signed in from: they may not try again for up to an hour. Networks it signed in from before are not held back.`;
  return mailed
    ? `${why} If the e-mail has an account, a link that unlocks it is on its way there (or went there in the last 15 minutes).`
    : `${why} The lock ends by itself.`;
}

/** The e-mail as every count keys it: the SHA-256 of its lowercase form. */
const hashOf = (email: string) => sha256(email.trim().toLowerCase());

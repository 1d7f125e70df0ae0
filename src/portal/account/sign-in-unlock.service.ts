import { Injectable } from '@nestjs/common';
import { AuditLog } from '../../audit/audit-log.service.js';
import { truncatedIp } from '../../common/client-network.js';
import { Transactions } from '../../database/transactions.js';
import { sha256 } from '../sha256.js';
import { SignInLockout } from '../sign-in-lockout.js';
import { UnlockLinksRepository } from './unlock-links.repository.js';

/**
 * Using an unlock link (UnlockLinks e-mails them): once, within its hour, it ends every count of the
 * member's e-mail (SignInLockout.unlocked) and makes the network it is used from one the e-mail
 * signed in from, so its owner gets in there even while guesses from elsewhere go on. Audited
 * (`sign_in.unlocked`).
 */
@Injectable()
export class SignInUnlock {
  constructor(
    private readonly db: Transactions,
    private readonly links: UnlockLinksRepository,
    private readonly lockout: SignInLockout,
    private readonly audit: AuditLog,
  ) {}

  async isOpen(token: string): Promise<boolean> {
    return this.db.run(async () => (await this.links.open(sha256(token))) !== null);
  }

  /** Clears the lock through an open link (then used up), from `ip`; false if the link is not open. */
  async unlock(token: string, ip: string): Promise<boolean> {
    return this.db.run(async () => {
      const login = await this.links.open(sha256(token));
      if (!login) return false;
      await this.links.use(sha256(token));
      await this.lockout.unlocked(login.email, ip);
      const actor = { type: 'member' as const, id: login.memberId, label: login.email, ip: truncatedIp(ip) };
      await this.audit.record(login.accountId, actor, 'sign_in.unlocked', login.memberId);
      return true;
    });
  }
}

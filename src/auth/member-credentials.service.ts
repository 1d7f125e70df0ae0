import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/request-context/actor.js';
import { ApiKeysService } from './api-keys.service.js';
import { ServiceAccountsService } from './service-accounts.service.js';

/**
 * Every credential a member created — API keys, service accounts and the tokens issued to them —
 * follows that member: a role change bounds them from their next request, a removal revokes them.
 * The one place MembersService asks, so that a new kind of credential is not forgotten there.
 */
@Injectable()
export class MemberCredentials {
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly serviceAccounts: ServiceAccountsService,
  ) {}

  /** In the caller's transaction: revokes what the member created (each audited); evicted from every instance's cache once it commits. */
  async revokeCreatedBy(accountId: string, actor: Actor, memberId: string): Promise<void> {
    await this.apiKeys.revokeCreatedBy(accountId, actor, memberId);
    await this.serviceAccounts.revokeCreatedBy(accountId, actor, memberId);
  }

  /** After a role change commits: what the member created is verified again, with the new role, on its next request on every instance. */
  async forgetCreatedBy(memberId: string): Promise<void> {
    await Promise.all([this.apiKeys.forgetCreatedBy(memberId), this.serviceAccounts.forgetCreatedBy(memberId)]);
  }
}

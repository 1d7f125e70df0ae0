import { Injectable } from '@nestjs/common';
import { AuthError } from './auth.errors.js';
import { newId } from '../common/ids.js';
import { CredentialCache } from './credential-cache.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto.js';
import type { ApiKey } from './entities/api-key.entity.js';
import { ApiKeysRepository } from './repositories/api-keys.repository.js';
import type { Principal } from '../common/request-context/principal.js';
import { ALL_SCOPES } from '../common/request-context/scopes.js';
import { API_KEY_PREFIX, newSecret, sha256Hex } from './secrets.js';

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly cache: CredentialCache,
  ) {}

  /** Creates a key; the raw key is returned once and only its hash is kept. */
  async create(accountId: string, name: string, scopes: string[]): Promise<CreatedApiKeyDto> {
    const key = newSecret(API_KEY_PREFIX);
    const row = await this.keys.insert({
      id: newId('key'),
      accountId,
      name,
      scopes,
      keyHash: sha256Hex(key),
      prefix: key.slice(0, 6),
      last4: key.slice(-4),
      lastUsedAt: null,
      revokedAt: null,
    });
    return { ...toDto(row), key };
  }

  /**
   * The scopes a credential (API key, service account) created by this one gets: the ones asked
   * for, which the creator must all hold. Only API keys create credentials: one made by an OAuth
   * token would outlive the token and its service account.
   */
  grantable(requested: string[] | undefined, creator: Principal): string[] {
    if (creator.kind !== 'api_key') throw AuthError.tokenCannotMintCredentials();
    if (!requested) return creator.scopes;
    if (creator.scopes.includes(ALL_SCOPES)) return requested;
    const missing = requested.filter((s) => !creator.scopes.includes(s));
    if (missing.length) throw AuthError.notGrantable(missing);
    return requested;
  }

  async list(accountId: string): Promise<ApiKeyDto[]> {
    return (await this.keys.listActive(accountId)).map(toDto);
  }

  async revoke(accountId: string, id: string): Promise<void> {
    const key = await this.keys.findActive(accountId, id);
    if (!key) throw AuthError.keyNotFound(id);
    await this.keys.revoke(id);
    await this.cache.evict([key.keyHash]);
  }
}

function toDto(row: ApiKey): ApiKeyDto {
  return { id: row.id, name: row.name, scopes: row.scopes, prefix: row.prefix, last4: row.last4, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { newId } from '../common/ids.js';
import { CredentialCache } from './credential-cache.js';
import { ApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto.js';
import type { ApiKey } from './entities/api-key.entity.js';
import { ApiKeysRepository } from './repositories/api-keys.repository.js';
import { ALL_SCOPES } from './scopes.js';
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

  /** The scopes a new key gets: the ones asked for, which must all be held by the creator. */
  grantable(requested: string[] | undefined, creatorScopes: string[]): string[] {
    if (!requested) return creatorScopes;
    if (creatorScopes.includes(ALL_SCOPES)) return requested;
    const missing = requested.filter((s) => !creatorScopes.includes(s));
    if (missing.length) throw new ForbiddenException(`Cannot grant scopes this credential does not hold: ${missing.join(', ')}`);
    return requested;
  }

  async list(accountId: string): Promise<ApiKeyDto[]> {
    return (await this.keys.listActive(accountId)).map(toDto);
  }

  async revoke(accountId: string, id: string): Promise<void> {
    const key = await this.keys.findActive(accountId, id);
    if (!key) throw new NotFoundException(`No API key ${id}`);
    await this.keys.revoke(id);
    await this.cache.evict([key.keyHash]);
  }
}

function toDto(row: ApiKey): ApiKeyDto {
  return { id: row.id, name: row.name, scopes: row.scopes, prefix: row.prefix, last4: row.last4, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

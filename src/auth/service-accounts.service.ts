import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { newId } from '../common/ids.js';
import { CredentialCache } from './credential-cache.js';
import { CreatedServiceAccountDto, ServiceAccountDto } from './dto/service-account.dto.js';
import { AccessToken } from './entities/access-token.entity.js';
import { ServiceAccount } from './entities/service-account.entity.js';
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, newSecret, sameDigest, sha256Hex } from './secrets.js';

@Injectable()
export class ServiceAccountsService {
  constructor(
    @InjectRepository(ServiceAccount) private readonly serviceAccounts: Repository<ServiceAccount>,
    @InjectRepository(AccessToken) private readonly tokens: Repository<AccessToken>,
    private readonly cache: CredentialCache,
  ) {}

  async create(accountId: string, name: string, scopes: string[]): Promise<CreatedServiceAccountDto> {
    const clientSecret = newSecret(CLIENT_SECRET_PREFIX);
    const row = await this.serviceAccounts.save(
      this.serviceAccounts.create({
        id: newId('sa'),
        accountId,
        name,
        scopes,
        clientId: newSecret(CLIENT_ID_PREFIX).slice(0, 36),
        clientSecretHash: sha256Hex(clientSecret),
        revokedAt: null,
      }),
    );
    return { ...toDto(row), clientSecret };
  }

  async list(accountId: string): Promise<ServiceAccountDto[]> {
    const rows = await this.serviceAccounts.find({ where: { accountId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
    return rows.map(toDto);
  }

  /** The active service account with these client credentials, or null (wrong secret looks like unknown id). */
  async authenticate(clientId: string, clientSecret: string): Promise<ServiceAccount | null> {
    const row = await this.serviceAccounts.findOne({ where: { clientId, revokedAt: IsNull() } });
    const presented = sha256Hex(clientSecret);
    // Compare even when the id is unknown, so both failures take the same time.
    const ok = sameDigest(row?.clientSecretHash ?? presented.replace(/./g, '0'), presented);
    return row && ok ? row : null;
  }

  /** Revokes the service account and every token it was issued. */
  async revoke(accountId: string, id: string): Promise<void> {
    const row = await this.serviceAccounts.findOne({ where: { id, accountId, revokedAt: IsNull() } });
    if (!row) throw new NotFoundException(`No service account ${id}`);
    const now = new Date();
    const live = await this.tokens.find({ where: { serviceAccountId: id, revokedAt: IsNull() } });
    await this.serviceAccounts.update({ id }, { revokedAt: now });
    await this.tokens.update({ serviceAccountId: id, revokedAt: IsNull() }, { revokedAt: now });
    await this.cache.evict(live.map((t) => t.tokenHash));
  }
}

function toDto(row: ServiceAccount): ServiceAccountDto {
  return { id: row.id, name: row.name, clientId: row.clientId, scopes: row.scopes, createdAt: row.createdAt };
}

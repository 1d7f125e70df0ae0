import { ArrayNotEmpty, ArrayUnique, IsArray, IsIn, IsString, Length } from 'class-validator';
import { ALL_SCOPES, SCOPES } from '../../common/request-context/scopes.js';
import { AiBudgetDto } from './ai-budget.dto.js';

const GRANTABLE = [ALL_SCOPES, ...SCOPES];

export class CreateServiceAccountDto extends AiBudgetDto {
  /** @example nightly-deployer */
  @IsString()
  @Length(1, 100)
  name: string;

  /** The most its access tokens may hold. @example ["apps:read","deployments:write"] */
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(GRANTABLE, { each: true, message: `scopes must each be one of: ${GRANTABLE.join(', ')}` })
  scopes: string[];
}

export class ServiceAccountDto {
  /** @example sa_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
  /** @example nightly-deployer */
  name: string;
  /** @example cid_Q2x8vL0cR4pT7sW1yZ3bD5fH9kM2nP6q */
  clientId: string;
  /** @example ["apps:read","deployments:write"] */
  scopes: string[];
  createdAt: Date;
  /** The AI budget its tokens share per UTC day (null: none of its own). @example 50000 */
  aiTokensPerDay: number | null;
  /** The AI budget its tokens share per UTC month (null: none of its own). @example null */
  aiTokensPerMonth: number | null;
}

/** `PATCH /v1/service-accounts/:id`: its AI budget (null removes a limit; a field left out stays as it is). */
export class UpdateServiceAccountDto extends AiBudgetDto {}

export class CreatedServiceAccountDto extends ServiceAccountDto {
  /** Shown only in this response: store it now. @example cs_8Jk2LmN4pQ6rS8tU0vW2xY4zA6bC8dE0fG2hJ4kL */
  clientSecret: string;
}

export class ServiceAccountListDto {
  data: ServiceAccountDto[];
}

import { ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { ALL_SCOPES, SCOPES } from '../../common/request-context/scopes.js';
import { AiBudgetDto } from './ai-budget.dto.js';

const GRANTABLE = [ALL_SCOPES, ...SCOPES];

export class CreateApiKeyDto extends AiBudgetDto {
  /** A label to recognise the key by. @example ci-deployer */
  @IsString()
  @Length(1, 100)
  name: string;

  /**
   * What the key may do; default: the scopes of the credential creating it. A key can never
   * get a scope its creator lacks. @example ["apps:read","deployments:write"]
   */
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(GRANTABLE, { each: true, message: `scopes must each be one of: ${GRANTABLE.join(', ')}` })
  scopes?: string[];
}

export class ApiKeyDto {
  /** @example key_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
  id: string;
  /** @example ci-deployer */
  name: string;
  /** @example ["apps:read","deployments:write"] */
  scopes: string[];
  /** The key's first characters, for recognising it. @example sk_7Hq */
  prefix: string;
  /** The key's last four characters. @example x9Zc */
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  /** Its AI budget per UTC day (null: none of its own). @example 50000 */
  aiTokensPerDay: number | null;
  /** Its AI budget per UTC month (null: none of its own). @example null */
  aiTokensPerMonth: number | null;
}

/** `PATCH /v1/api-keys/:id`: the key's AI budget (null removes a limit; a field left out stays as it is). */
export class UpdateApiKeyDto extends AiBudgetDto {}

export class CreatedApiKeyDto extends ApiKeyDto {
  /** The key itself. Shown only in this response: store it now. @example sk_7HqLx2cV0pR8sT4wY6zA1bC3dE5fG7hJ9kL0mN2x9Zc */
  key: string;
}

export class ApiKeyListDto {
  data: ApiKeyDto[];
}

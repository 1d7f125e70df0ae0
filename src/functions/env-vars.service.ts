import { Injectable } from '@nestjs/common';
import { AppsService } from '../apps/apps.service.js';
import { AuditLog } from '../audit/audit-log.service.js';
import { RequestError } from '../common/errors/request-errors.js';
import type { Actor } from '../common/request-context/actor.js';
import { Transactions } from '../database/transactions.js';
import { ENV_PATTERN } from '../deployments/dto/deploy.dto.js';
import { SecretBox } from '../webhooks/secret-box.js';
import type { EnvVarDto, SetEnvVarDto } from './dto/env-var.dto.js';
import { EnvVarsError } from './env-vars.errors.js';
import { type EnvVarRow, EnvVarsRepository, type StoredVar } from './env-vars.repository.js';

const NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;
export const MAX_VALUE_BYTES = 64 * 1024;
export const MAX_VARS = 100;

/**
 * An app environment's variables and secrets for its server code (docs/functions.md). Secrets are sealed at rest
 * (SecretBox, the webhook secrets' scheme) and never shown again; the audit log gets names only. A deployment takes
 * them as they are when it is deployed (`snapshot`), and its instance's `env` is made from that copy (`envOf`).
 */
@Injectable()
export class EnvVarsService {
  constructor(
    private readonly db: Transactions,
    private readonly vars: EnvVarsRepository,
    private readonly apps: AppsService,
    private readonly audit: AuditLog,
    private readonly box: SecretBox,
  ) {}

  async set(accountId: string, actor: Actor, appId: string, env: string, name: string, body: SetEnvVarDto): Promise<EnvVarDto> {
    checkEnv(env);
    const problems = nameProblems(name);
    if (Buffer.byteLength(body.value) > MAX_VALUE_BYTES) problems.push(`value must be at most ${MAX_VALUE_BYTES} bytes (64 KiB)`);
    if (problems.length > 0) throw RequestError.invalid(problems);
    const secret = body.secret === true;
    const row: EnvVarRow = { name, secret, value: secret ? this.box.seal(body.value) : body.value, updatedAt: new Date() };
    await this.db.run(async () => {
      await this.apps.requireOwnedForBody(accountId, appId); // the app's row locked: two sets cannot pass the cap together
      if (!(await this.vars.exists(appId, env, name)) && (await this.vars.count(appId, env)) >= MAX_VARS) {
        throw RequestError.invalid([`name: environment ${env} holds ${MAX_VARS} variables already, the most it may; delete one first`]);
      }
      await this.vars.upsert(appId, env, row, row.updatedAt);
      await this.audit.record(accountId, actor, 'env_var.set', targetOf(appId, env, name));
    });
    return toDto(row);
  }

  async list(accountId: string, appId: string, env: string): Promise<EnvVarDto[]> {
    checkEnv(env);
    await this.apps.requireOwned(accountId, appId);
    return (await this.vars.list(appId, env)).map(toDto);
  }

  async remove(accountId: string, actor: Actor, appId: string, env: string, name: string): Promise<void> {
    checkEnv(env);
    await this.db.run(async () => {
      await this.apps.requireOwned(accountId, appId);
      if (!(await this.vars.delete(appId, env, name))) throw EnvVarsError.notFound(env, name.slice(0, 64));
      await this.audit.record(accountId, actor, 'env_var.deleted', targetOf(appId, env, name));
    });
  }

  /** Inside a deploy's transaction: the environment's variables as stored (secrets still sealed). */
  async snapshot(appId: string, env: string): Promise<StoredVar[]> {
    return (await this.vars.list(appId, env)).map(({ name, secret, value }) => ({ name, secret, value }));
  }

  /** An instance's `env` from a deployment's copy: secrets opened. */
  envOf(vars: readonly StoredVar[] | null): Record<string, string> {
    const env: Record<string, string> = {};
    for (const v of vars ?? []) env[v.name] = v.secret ? this.box.open(v.value) : v.value;
    return env;
  }
}

function checkEnv(env: string): void {
  if (!ENV_PATTERN.test(env)) throw RequestError.invalid([`env must match ${ENV_PATTERN.source} (production, staging, pr-42)`]);
}

function nameProblems(name: string): string[] {
  if (!NAME.test(name)) return [`name must match ${NAME.source} (upper-case letters, digits and _, not starting with a digit)`];
  if (name.startsWith('PLATFORM_')) return ['name must not start with PLATFORM_ (the platform sets PLATFORM_URL and PLATFORM_TOKEN)'];
  return [];
}

/** The audit entry's target: where the variable is, by name (never its value). */
function targetOf(appId: string, env: string, name: string): string {
  return `${appId}/${env}/${name}`;
}

function toDto(row: EnvVarRow): EnvVarDto {
  return { name: row.name, secret: row.secret, ...(row.secret ? {} : { value: row.value }), updatedAt: row.updatedAt.toISOString() };
}

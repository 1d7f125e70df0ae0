import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServerSecrets } from '../config/server-secrets.js';

/** A function instance's `PLATFORM_TOKEN`: `dt_<deploymentId>.<signature>`. */
export const DEPLOYMENT_TOKEN_PREFIX = 'dt_';

/** What a deployment's token may do: sign a visitor up, call the AI routes. Nothing else. */
export const DEPLOYMENT_TOKEN_SCOPES = ['users:write', 'ai:generate'] as const;

/**
 * The deployment-bound credential of a function instance. It is derived, never stored: an HMAC of the deployment's
 * id under a key of its own (derived from the session secret), so no table holds it in clear or at all; whether it
 * still works is decided on each use from the deployment's standing (CredentialsService), not from the token.
 */
@Injectable()
export class DeploymentTokens {
  private signingKey?: Buffer;

  constructor(private readonly secrets: ServerSecrets) {}

  issue(deploymentId: string): string {
    return `${DEPLOYMENT_TOKEN_PREFIX}${deploymentId}.${this.sign(deploymentId)}`;
  }

  /** The deployment a token was issued to, or null when it is not one of ours (bad shape or signature). */
  deploymentOf(token: string): string | null {
    if (!token.startsWith(DEPLOYMENT_TOKEN_PREFIX)) return null;
    const dot = token.lastIndexOf('.');
    if (dot < 0) return null;
    const deploymentId = token.slice(DEPLOYMENT_TOKEN_PREFIX.length, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.sign(deploymentId), 'base64url');
    return deploymentId.length > 0 && given.length === expected.length && timingSafeEqual(given, expected) ? deploymentId : null;
  }

  private sign(deploymentId: string): string {
    this.signingKey ??= this.secrets.keyFor('deployment-token');
    return createHmac('sha256', this.signingKey).update(deploymentId).digest('base64url');
  }
}

import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServerSecrets } from '../config/server-secrets.js';

/** A form older than this is not accepted (the visitor reloads the page): a token cannot be replayed for long. */
export const TOKEN_MAX_AGE_MS = 2 * 3600 * 1000;
/** No person fills in and sends the form faster than this; scripts do. */
export const TOKEN_MIN_AGE_MS = 2000;

export type TokenProblem = 'token_missing' | 'token_forged' | 'token_expired' | 'too_fast';

/**
 * The sign-up form's hidden `token`: the deployment it was rendered for and when, signed with a
 * key derived from SESSION_SECRET — no cookie, no server state. A bot that posts without loading
 * the page, replays an old form, or posts faster than a person could type is told apart.
 */
@Injectable()
export class SignupTokens {
  private readonly key: Buffer;

  constructor(secrets: ServerSecrets) {
    this.key = secrets.keyFor('signup-form-token');
  }

  issue(deploymentId: string, now = Date.now()): string {
    const payload = `${deploymentId}.${now.toString(36)}`;
    return `${payload}.${this.sign(payload)}`;
  }

  /** The deployment the form was rendered for, or why the token does not count. */
  read(token: unknown, now = Date.now()): { deploymentId: string } | { problem: TokenProblem } {
    if (typeof token !== 'string' || token === '') return { problem: 'token_missing' };
    const parts = token.split('.');
    if (parts.length !== 3) return { problem: 'token_forged' };
    const [deploymentId, time, signature] = parts;
    const expected = Buffer.from(this.sign(`${deploymentId}.${time}`));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { problem: 'token_forged' };
    const age = now - parseInt(time, 36);
    if (!(age <= TOKEN_MAX_AGE_MS)) return { problem: 'token_expired' };
    if (age < TOKEN_MIN_AGE_MS) return { problem: 'too_fast' };
    return { deploymentId };
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url');
  }
}

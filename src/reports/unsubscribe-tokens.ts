import { Injectable } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ServerSecrets } from '../config/server-secrets.js';

/**
 * A report's unsubscribe token: the switch's id, signed with a key derived from SESSION_SECRET. It
 * names one switch (member, app, kind), so it dies with it: once used, or once the member turns the
 * report off, the link does nothing — and turning it on again makes a new switch and new links.
 */
@Injectable()
export class UnsubscribeTokens {
  private readonly key: Buffer;

  constructor(secrets: ServerSecrets) {
    this.key = secrets.keyFor('analytics-report-unsubscribe');
  }

  issue(subscriptionId: string): string {
    return `${subscriptionId}.${this.sign(subscriptionId)}`;
  }

  /** The switch's id, or null for a token this server did not sign. */
  read(token: string): string | null {
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 200) return null;
    const id = token.slice(0, dot);
    const expected = Buffer.from(this.sign(id));
    const given = Buffer.from(token.slice(dot + 1));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  private sign(id: string): string {
    return createHmac('sha256', this.key).update(id).digest('base64url');
  }
}

import { Injectable } from '@nestjs/common';
import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { AuditLog } from '../audit/audit-log.service.js';
import type { Actor } from '../common/request-context/actor.js';
import { Transactions } from '../database/transactions.js';
import { SecretBox } from '../webhooks/secret-box.js';
import { MfaError } from './mfa.errors.js';
import { MfaRepository } from './mfa.repository.js';

const ISSUER = 'Platform';
const PERIOD_S = 30;
/** Codes of the previous and the next 30 s are accepted too (clocks drift), each once. */
const WINDOW = 1;
export const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export interface Enrolment {
  /** The secret in base32, for typing into an authenticator by hand. */
  secret: string;
  otpauthUrl: string;
  /** The otpauth URL as a QR code, an SVG document drawn here (no third party sees the secret). */
  qrSvg: string;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
/** A recovery code as typed: case, spaces and dashes do not matter. */
const normalisedCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * TOTP two-factor sign-in (RFC 6238: SHA-1, 6 digits, 30 s): enrolment shows a secret and its QR
 * code and is confirmed by a first code, which yields 10 single-use recovery codes (shown once,
 * stored hashed). A code is accepted once: the time step of the last one accepted is kept, and a
 * code of that step or an earlier one is refused — also when two sign-ins race with it.
 */
@Injectable()
export class MfaService {
  constructor(
    private readonly db: Transactions,
    private readonly mfa: MfaRepository,
    private readonly box: SecretBox,
    private readonly audit: AuditLog,
  ) {}

  async isEnrolled(memberId: string): Promise<boolean> {
    return (await this.mfa.find(memberId))?.enrolledAt != null;
  }

  /** A new secret for the member's authenticator, awaiting its first code (`confirm`). */
  async start(memberId: string, email: string): Promise<Enrolment> {
    const secret = new Secret({ size: 20 });
    if (!(await this.mfa.savePending(memberId, this.box.seal(secret.base32)))) throw MfaError.alreadyEnrolled();
    return enrolmentOf(secret, email);
  }

  /** The enrolment awaiting its first code, shown again (a wrong code, a reload), or null if none awaits. */
  async pending(memberId: string, email: string): Promise<Enrolment | null> {
    const stored = await this.mfa.find(memberId);
    if (!stored || stored.enrolledAt) return null;
    return enrolmentOf(Secret.fromBase32(this.box.open(stored.secret)), email);
  }

  /** Confirms the enrolment with a code of the new secret; answers the recovery codes, the only time they are shown. */
  async confirm(accountId: string, actor: Actor, memberId: string, code: string, now = Date.now()): Promise<string[]> {
    const stored = await this.mfa.find(memberId);
    if (!stored) throw MfaError.notStarted();
    if (stored.enrolledAt) throw MfaError.alreadyEnrolled();
    const step = this.matchingStep(stored.secret, code, now);
    if (step === null) throw MfaError.wrongCode();
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.db.run(async () => {
      await this.mfa.markEnrolled(memberId, step);
      await this.mfa.replaceRecoveryCodes(
        memberId,
        codes.map((c) => sha256(normalisedCode(c))),
      );
      await this.audit.record(accountId, actor, 'mfa.enrolled', memberId);
    });
    return codes;
  }

  /**
   * A sign-in's second factor: a current code of the member's authenticator not accepted before, or
   * an unused recovery code (then used up). False for anything else.
   */
  async verify(memberId: string, code: string, now = Date.now()): Promise<boolean> {
    const stored = await this.mfa.find(memberId);
    if (!stored?.enrolledAt) return false;
    const step = this.matchingStep(stored.secret, code, now);
    if (step !== null) return this.mfa.takeStep(memberId, step);
    const recovery = normalisedCode(code);
    return recovery.length === 10 && this.mfa.useRecoveryCode(memberId, sha256(recovery));
  }

  /** Ten new recovery codes for an enrolled member (the earlier ones stop working); answers them, the only time they are shown. */
  async regenerateRecoveryCodes(accountId: string, actor: Actor, memberId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await this.db.run(async () => {
      if (!(await this.mfa.find(memberId))?.enrolledAt) throw MfaError.notEnrolled();
      await this.mfa.replaceRecoveryCodes(
        memberId,
        codes.map((c) => sha256(normalisedCode(c))),
      );
      await this.audit.record(accountId, actor, 'mfa.recovery_codes_regenerated', memberId);
    });
    return codes;
  }

  unusedRecoveryCodes(memberId: string): Promise<number> {
    return this.mfa.unusedRecoveryCodes(memberId);
  }

  async remove(accountId: string, actor: Actor, memberId: string): Promise<void> {
    await this.db.run(async () => {
      if (!(await this.mfa.remove(memberId))) throw MfaError.notEnrolled();
      await this.audit.record(accountId, actor, 'mfa.removed', memberId);
    });
  }

  mfaRequired(accountId: string): Promise<boolean> {
    return this.mfa.mfaRequired(accountId);
  }

  /** The owner's "MFA required" policy; a change (not a save of the same value) is in the audit log. */
  async setMfaRequired(accountId: string, actor: Actor, required: boolean): Promise<void> {
    await this.db.run(async () => {
      if ((await this.mfa.mfaRequired(accountId)) === required) return;
      await this.mfa.setMfaRequired(accountId, required);
      await this.audit.record(accountId, actor, 'mfa.policy_changed', accountId);
    });
  }

  /** The time step of the (current, previous or next) code `code` is, or null. */
  private matchingStep(sealed: string, code: string, now: number): number | null {
    const token = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(token)) return null;
    const delta = totpOf(Secret.fromBase32(this.box.open(sealed)), '').validate({ token, timestamp: now, window: WINDOW });
    return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
  }
}

async function enrolmentOf(secret: Secret, email: string): Promise<Enrolment> {
  const otpauthUrl = totpOf(secret, email).toString();
  return { secret: secret.base32, otpauthUrl, qrSvg: await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }) };
}

function totpOf(secret: Secret, email: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret });
}

/** Ten characters from an unambiguous alphabet (about 49 bits), shown as `xxxxx-xxxxx`. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

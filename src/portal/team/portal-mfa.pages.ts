import { Injectable } from '@nestjs/common';
import { roleAllows } from '../../common/request-context/roles.js';
import { MfaError, MfaErrorCode } from '../../mfa/mfa.errors.js';
import { type Enrolment, MfaService } from '../../mfa/mfa.service.js';
import { chrome, type Form, type PortalAnswer, portalActor, type Signed, text } from '../portal-page.js';
import { type PortalHtml, renderPortal } from '../portal-pages.js';
import { MFA_ENROLMENT_PATH } from '../portal-role.guard.js';
import { confirmPasswordPath } from '../portal-sudo.guard.js';
import { type LockedBy, lockedText, SignInLockout } from '../sign-in-lockout.js';

/** A member's two-factor sign-in in the portal, through MfaService (enrolment, new recovery codes and removal audited there). */
@Injectable()
export class PortalMfaPages {
  constructor(
    private readonly mfa: MfaService,
    private readonly lockout: SignInLockout,
  ) {}

  /** The settings; without a recent password (sudo mode), the changes of the member's own factors are offered behind "Confirm your password". */
  async settings(signed: Signed, notes: Record<string, unknown> = {}, status = 200): Promise<PortalHtml> {
    const [enrolled, required] = await Promise.all([this.mfa.isEnrolled(signed.memberId), this.mfa.mfaRequired(signed.accountId)]);
    const recoveryLeft = enrolled ? await this.mfa.unusedRecoveryCodes(signed.memberId) : 0;
    return renderPortal(
      'mfa',
      {
        ...chrome(signed),
        enrolled,
        required,
        recoveryLeft,
        mustEnrol: required && !enrolled,
        mayRequire: roleAllows(signed.role, 'owners:manage'),
        sudo: signed.recentlyAuthenticated,
        confirmPassword: confirmPasswordPath(MFA_ENROLMENT_PATH),
        errors: {},
        ...notes,
      },
      status,
    );
  }

  /** A new secret and its QR code, awaiting the first code. */
  async start(signed: Signed): Promise<PortalAnswer> {
    if (await this.mfa.isEnrolled(signed.memberId)) return { redirect: MFA_ENROLMENT_PATH };
    return this.enrolPage(signed, await this.mfa.start(signed.memberId, signed.email));
  }

  /** The first code: the recovery codes, shown once; a wrong one: the same QR code again, saying so. */
  async confirm(signed: Signed, form: Form): Promise<PortalAnswer> {
    try {
      const codes = await this.mfa.confirm(signed.accountId, portalActor(signed), signed.memberId, text(form, 'code', 32));
      return renderPortal('mfa-codes', { ...chrome(signed), codes });
    } catch (err) {
      if (!(err instanceof MfaError)) throw err;
      if (err.reason !== MfaErrorCode.WrongCode) return { redirect: MFA_ENROLMENT_PATH };
      const pending = await this.mfa.pending(signed.memberId, signed.email);
      if (!pending) return { redirect: MFA_ENROLMENT_PATH };
      return this.enrolPage(signed, pending, err.message, 400);
    }
  }

  /** Ten new recovery codes, shown once; the earlier ones stop working. */
  async newRecoveryCodes(signed: Signed): Promise<PortalAnswer> {
    try {
      const codes = await this.mfa.regenerateRecoveryCodes(signed.accountId, portalActor(signed), signed.memberId);
      return renderPortal('mfa-codes', { ...chrome(signed), codes, regenerated: true });
    } catch (err) {
      if (!(err instanceof MfaError)) throw err;
      return { redirect: MFA_ENROLMENT_PATH };
    }
  }

  /** Turns two-factor sign-in off, once a current code (or a recovery code) proves the device is at hand. */
  async remove(signed: Signed, form: Form): Promise<PortalAnswer> {
    // Codes tried here count against the sign-in lockout too: a stolen session must not guess codes freely.
    const attempt = await this.lockout.take(signed.email, signed.ip);
    const locked = (by: LockedBy) => this.settings(signed, { errors: { code: lockedText(by, 'codes', this.lockout.mailsUnlockLinks) } }, 429);
    if (attempt.locked) return locked(attempt.locked);
    if (!(await this.mfa.verify(signed.memberId, text(form, 'code', 32)))) {
      const by = this.lockout.failed(signed.email, signed.ip, attempt);
      if (by) return locked(by);
      return this.settings(signed, { errors: { code: 'That code is not valid: type a current code from your authenticator, or a recovery code.' } }, 400);
    }
    await this.lockout.succeeded(signed.email, signed.ip);
    await this.mfa.remove(signed.accountId, portalActor(signed), signed.memberId);
    return { redirect: MFA_ENROLMENT_PATH };
  }

  /** The owner's setting: every member of the account signs in with MFA (those without it enrol at their next page). */
  async setRequired(signed: Signed, form: Form): Promise<PortalAnswer> {
    await this.mfa.setMfaRequired(signed.accountId, portalActor(signed), form.required === 'on');
    return { redirect: MFA_ENROLMENT_PATH };
  }

  private enrolPage(signed: Signed, enrolment: Enrolment, error?: string, status = 200): PortalHtml {
    return renderPortal('mfa-enrol', { ...chrome(signed), qrSvg: enrolment.qrSvg, secret: enrolment.secret, error }, status);
  }
}

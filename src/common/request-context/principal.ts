import type { FastifyRequest } from 'fastify';
import type { Role } from './roles.js';

/** Who is calling: put on the request by the bearer guard (src/auth/), read with @CurrentPrincipal(). */
export interface Principal {
  accountId: string;
  /** The API key's or the OAuth access token's id (a portal session: `portal`; a PLATFORM_TOKEN: its deployment's). */
  credentialId: string;
  /**
   * `portal_session`: a developer signed in to the portal, acting through the same services.
   * `deployment_token`: a function instance's PLATFORM_TOKEN (src/auth/deployment-tokens.ts).
   */
  kind: 'api_key' | 'access_token' | 'portal_session' | 'deployment_token';
  scopes: string[];
  /**
   * The member this credential acts for: a portal session's; the member who created the API key, or
   * the service account an OAuth token was issued to. Its *current* role bounds the scopes on every
   * request; `role: null` when that member was removed (the credential may do nothing). Absent for a
   * credential no member created (the operator's, or made before creators were recorded): its own
   * scopes bound it, and like every credential it never performs an owner-only act (owner-member.ts).
   */
  member?: { id: string; role: Role | null };
  /** How the audit log names the caller: an API key's name, a service account's, a member's e-mail. */
  label?: string;
  /**
   * Whose AI budget the caller's AI calls count against — the API key, or the service account of an
   * access token — and its limits (null: none for that period). Absent for portal sessions.
   */
  aiBudget?: { subject: string; tokensPerDay: number | null; tokensPerMonth: number | null };
  /** Set for a credential bound to one app (a deployment's PLATFORM_TOKEN): it may act on that app only. */
  appId?: string;
}

/** A request once the bearer guard has run: `principal` is set on routes that are not @Public(); `operator` once the admin guard let it in. */
export type RequestWithPrincipal = FastifyRequest & { principal?: Principal; operator?: true };

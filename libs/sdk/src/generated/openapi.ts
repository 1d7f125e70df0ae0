/**
 * Generated from the service's OpenAPI document (GET /docs/openapi.json) by openapi-typescript.
 * Do not edit: run `npm run sdk:types` at the repository root after changing a route or DTO.
 */
export interface paths {
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events
         * @description The events of the last 30 days, newest first; filter with `kind`. Needs `events:read`: events carry personal data (e-mails of sign-ups).
         */
        get: operations["EventLogController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an event */
        get: operations["EventLogController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit-log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the audit log
         * @description Who did what in the account (sign-ins, members, keys, service accounts, webhook endpoints, plan, app deletions, domains, user exports and erasures), newest first, kept 400 days. Filter with `action`, `actor` (an id), `from` and `to`. No route edits or deletes an entry.
         */
        get: operations["AuditLogController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus metrics */
        get: operations["MetricsController_scrape"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/live": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process answers */
        get: operations["HealthController_live"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: the database (and Redis and its queue connections when configured) answer, and no background write path has been failing for more than 30 s
         * @description A 503 names what is down, e.g. `Not ready: analytics writes failing for 42 s`.
         */
        get: operations["HealthController_ready"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's active API keys (prefix and last 4 only) */
        get: operations["ApiKeysController_list"];
        put?: never;
        /**
         * Create an API key
         * @description The key is in the response once; only its SHA-256 hash is stored. A key can grant only scopes it holds, and only those the role of the member it acts for allows (403 naming the role); the new key records that member as its creator. An OAuth access token cannot create keys (403). `aiTokensPerDay` / `aiTokensPerMonth` give it an AI budget of its own (429 `ai_budget_exhausted` past it).
         */
        post: operations["ApiKeysController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Takes effect at once, on every instance.
         */
        delete: operations["ApiKeysController_revoke"];
        options?: never;
        head?: never;
        /**
         * Change an API key's AI budget
         * @description `aiTokensPerDay` / `aiTokensPerMonth`: the most `ai.tokens` its AI calls may use per UTC day and month (null removes a limit; a field left out stays). Its AI calls past one answer 429 `ai_budget_exhausted` until the period ends. Takes effect at once, on every instance.
         */
        patch: operations["ApiKeysController_update"];
        trace?: never;
    };
    "/v1/service-accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List the account's active service accounts */
        get: operations["ServiceAccountsController_list"];
        put?: never;
        /**
         * Create a service account (OAuth 2.0 client)
         * @description Returns `clientId` and `clientSecret` (once). Exchange them at `POST /v1/oauth/token` for access tokens. Its scopes are checked as an API key's: only scopes the caller holds and the role of the member it acts for allows (403 naming the role). It records that member as its creator: their current role bounds its tokens on every request, and removing the member revokes it. An OAuth access token cannot create one (403). `aiTokensPerDay` / `aiTokensPerMonth` give it an AI budget its tokens share (429 `ai_budget_exhausted` past it).
         */
        post: operations["ServiceAccountsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/service-accounts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a service account and every token it holds */
        delete: operations["ServiceAccountsController_revoke"];
        options?: never;
        head?: never;
        /**
         * Change a service account's AI budget
         * @description `aiTokensPerDay` / `aiTokensPerMonth`: the most `ai.tokens` the AI calls of its tokens may use together per UTC day and month (null removes a limit; a field left out stays). Past one they answer 429 `ai_budget_exhausted` until the period ends. Takes effect at once, on every instance.
         */
        patch: operations["ServiceAccountsController_update"];
        trace?: never;
    };
    "/v1/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get an access token (client credentials grant, RFC 6749 §4.4)
         * @description Client credentials in the body (`client_id`, `client_secret`) or as HTTP Basic. `scope` must be a subset of the service account's scopes. Errors are RFC 6749 §5.2 bodies (`error`, `error_description`) with `code` and `message` beside them.
         */
        post: operations["OAuthController_token"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Introspect an access token (RFC 7662)
         * @description `{ active: false }` for a token that is unknown, expired, revoked or another account's. A credential may introspect itself; any other token of the account needs `keys:write`.
         */
        post: operations["OAuthController_introspect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/oauth/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an access token (RFC 7009)
         * @description Answers 200 even for an unknown token or another account's. A token may revoke itself; revoking any other token of the account needs `keys:write`.
         */
        post: operations["OAuthController_revoke"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a developer account
         * @description Needs the admin token (ADMIN_TOKEN).
         */
        post: operations["AdminController_createAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An account: its plan and this month’s usage
         * @description Needs the admin token.
         */
        get: operations["AdminController_getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-issue an account’s portal invite
         * @description A new single-use link (valid 7 days) where the developer sets a portal password — for an invite that expired, or a developer locked out. The account’s earlier unused invite links stop working; setting a password through the new one signs out the account’s portal sessions. Needs the admin token.
         */
        post: operations["AdminController_reissueInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Move an account to another plan
         * @description Its rate limits and quotas change at once (on other instances within 10 s). Emits `billing.plan.changed` `{ from, to }`. Needs the admin token.
         */
        put: operations["AdminController_changePlan"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Turn an account’s single sign-on off
         * @description The way back in when every owner is locked out (SSO required, the provider down or misconfigured, no owner with MFA): no API key or access token may change single sign-on, only an owner signed in to the portal — or the operator, here. The settings and the secret are forgotten; members sign in with passwords again. Audited as `sso.removed` by the operator. Needs the admin token.
         */
        delete: operations["AdminController_removeSso"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/analytics-reports/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the e-mail reports due now
         * @description What the daily job `analytics-reports` does (06:00 UTC in worker processes), now: each switched-on weekly report of the previous ISO week and monthly report of the previous month not sent yet goes out — once per member, app and period, however often this is called and on however many instances. Without SMTP_URL nothing is sent or marked. Needs the admin token.
         */
        post: operations["AdminController_sendReports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's members
         * @description The people who sign in to the portal, each with a role (owner, admin, developer, viewer).
         */
        get: operations["MembersController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's pending invitations
         * @description Invitations neither used, revoked nor expired, newest first, each with its sender. Never the link.
         */
        get: operations["MembersController_pendingInvitations"];
        put?: never;
        /**
         * Invite a member
         * @description The link is single use, works for the invited e-mail only and for 7 days. It is e-mailed when the server has SMTP_URL; otherwise it is in this answer, once. At most 3 invitation e-mails go to one address (from any account) per 15 minutes: 429 `invitation_mail_limit` with Retry-After, nothing made. An e-mail that is a member already → 409. The invitation records the member the caller acts for as its sender: it never grants more than the sender's role when it is used, and is revoked when they are removed. Making, demoting or removing an owner takes an owner signed in to the portal: an API key or access token gets 403 `owner_member_required` whoever created it, a portal session of another role 403 `owners_only`.
         */
        post: operations["MembersController_invite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/invitations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a pending invitation
         * @description Its link opens nothing from then on. Audited as `member.invitation_revoked`.
         */
        delete: operations["MembersController_revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/members/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a member
         * @description Their portal sessions end, and the API keys and service accounts (with their tokens) they created and the invitations they sent are revoked, at once on every instance. The last owner cannot be removed (409 `last_owner`). Making, demoting or removing an owner takes an owner signed in to the portal: an API key or access token gets 403 `owner_member_required` whoever created it, a portal session of another role 403 `owners_only`.
         */
        delete: operations["MembersController_remove"];
        options?: never;
        head?: never;
        /**
         * Change a member's role
         * @description Takes effect at once: in the portal, and for the API keys and service accounts (their tokens) the member created, bounded by the new role from their next request on every instance; the member's pending invitations above the new role are revoked. The last owner cannot be demoted (409 `last_owner`). Making, demoting or removing an owner takes an owner signed in to the portal: an API key or access token gets 403 `owner_member_required` whoever created it, a portal session of another role 403 `owners_only`.
         */
        patch: operations["MembersController_changeRole"];
        trace?: never;
    };
    "/v1/sso": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's single sign-on settings
         * @description The client secret is never answered (`clientSecretSet`).
         */
        get: operations["SsoController_get"];
        /**
         * Set up or change single sign-on (OpenID Connect)
         * @description The issuer's discovery document is read first: an issuer that does not answer, or answers for another issuer, is refused (422 `sso_discovery_failed`) and nothing is saved. The issuer must be https (400 `sso_issuer_insecure`; plain http only on 127.0.0.1, ::1 or localhost when the operator sets SSO_ALLOW_INSECURE_LOOPBACK) at a public address (400 `sso_issuer_private`). Each domain must then be proven with a TXT record (`domainProofs`, `POST /v1/sso/domains/{domain}/verify`) before it routes sign-ins; a domain another account proved already → 409 `sso_domain_taken`; a public mail provider's domain (gmail.com…) → 400 `sso_domain_public`. `clientSecret` is required the first time and whenever `issuer` or `clientId` changes (400 `sso_client_secret_required`), else optional (the stored one is kept).
         */
        put: operations["SsoController_put"];
        post?: never;
        /**
         * Turn single sign-on off
         * @description The settings and the secret are forgotten; members sign in with passwords again.
         */
        delete: operations["SsoController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sso/domains/{domain}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check an SSO domain's DNS proof now
         * @description Looks for the TXT record of `domainProofs[].verification` now and answers the settings: the domain `verified` once the record holds the value — from then on its sign-ins go to this provider — else as it was, with `lastCheck` saying what was found. 409 `sso_domain_taken` when another account proved the domain first; 404 `sso_domain_not_listed` when it is not one of the settings’ domains.
         */
        post: operations["SsoController_verifyDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the account's apps
         * @description Newest first. Follow `nextCursor` until it is null to see every app exactly once, even while apps are being created.
         */
        get: operations["AppsController_list"];
        put?: never;
        /**
         * Create an app
         * @description Emits `app.created`.
         */
        post: operations["AppsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an app */
        get: operations["AppsController_get"];
        put?: never;
        post?: never;
        /**
         * Delete an app
         * @description Also deletes its deployments (their pages go away) and its users. Emits `app.deleted`.
         */
        delete: operations["AppsController_delete"];
        options?: never;
        head?: never;
        /**
         * Update an app
         * @description Changes the fields sent. Emits `app.updated` when something changed. Existing deployments keep their snapshot.
         */
        patch: operations["AppsController_update"];
        trace?: never;
    };
    "/v1/apps/{appId}/landing-page": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an app's landing page
         * @description An app that never had one gets a default page built from its name and description (`source: default`).
         */
        get: operations["LandingPagesController_get"];
        /**
         * Replace an app's landing page
         * @description Saves the page as written (`source: manual`); the next deploy serves it. Every field is plain text: markup stays text and is shown escaped. A field out of range or unknown is a 400 naming it (`hero.headline`, `property hero.subtitle should not exist`). Emits `app.updated` with `changed: ["landingPage"]`.
         */
        put: operations["LandingPagesController_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/landing-page/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Have AI write the landing page
         * @description Writes the sections asked for (default: all) with the server's AI provider, field by field, and saves the page (`source: generated`); the other sections keep their content. Works with any provider: every field is cleaned of markup, cut to its limit, and falls back to the app's own text when it comes out empty. Each field is one metered generation (see `GET /v1/ai/usage`); the route counts once in the AI rate limit. Prompts and outputs are not logged. Under a hard `ai.tokens` quota, 402 before the first field when the quota has no room for them all. No provider configured: 503. Emits `app.updated`.
         */
        post: operations["LandingPagesController_generate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/files/{sha256}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Upload a file for deploys
         * @description The body is the raw content (`Content-Type: application/octet-stream`, at most `MAX_FILE_BYTES`, default 25 MiB); the path names its SHA-256 in lowercase hex, which must be the digest of the body (else 400 `digest_mismatch`, nothing stored). Files are kept per account: a deploy references them by hash in `files`. 201 when stored, 200 when the account had it already (nothing rewritten; its 24 h restart). A file no deployment references is deleted 24 h after its last upload. The credential, rate limit and scope are checked before the body is read (a refusal closes the connection); uploads count in their own rate-limit bucket, `RATE_LIMIT_UPLOADS_MAX` per 60 s per account, not in the general one. A new file counts in the `storage.bytes` meter while the account keeps it; past the plan’s hard storage quota: 402 `quota_exceeded`, nothing stored.
         */
        put: operations["FilesController_upload"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/deploy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deploy an app to an environment
         * @description Takes an immutable snapshot of the app (name, description, landing page) and serves it, without authentication, at `url` (`{PUBLIC_URL}/sites/<deploymentId>/`). `{PUBLIC_URL}/sites/<appId>/<env>/` always serves the newest deployment of that environment. With `files` (hashes uploaded with `PUT /v1/files/:sha256`) and an optional `config`, the deployment also serves the app's own files, on an origin of its own (`url`: `<scheme>://<label>.<SITES_DOMAIN>/`); a hash this account has not uploaded: 400 `files_missing` with `missing` (all of them). Emits `deployment.succeeded`. Counts one `deployments`; past a hard quota 402, nothing deployed. Any 4xx deploys nothing.
         */
        post: operations["DeploymentsController_deploy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments/{deploymentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a deployment
         * @description With the snapshot it serves.
         */
        get: operations["DeploymentsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/deployments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an app's deployments
         * @description Newest first, every environment.
         */
        get: operations["DeploymentsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/deployments/{deploymentId}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A deployment's server code logs
         * @description Its instances' `console.*` output and one `request` line per request (method, path without the query string, status, duration: no address, no header), and `system` lines (started, stopped, crashed, lines dropped past 100 a second). The newest 1,000 lines, at most 24 hours old; `limit` (1–1000, default 100) of the newest after `since`, oldest first. With `follow=true`: `text/event-stream`, one `data:` JSON line per log line as it is written (after `since` when given, else from now on), until the client closes; a `: keep-alive` comment line after each 15 s (`FUNCTIONS_LOGS_KEEPALIVE_MS`) without a line.
         */
        get: operations["FunctionLogsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/publish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish an app (or roll back)
         * @description Points the public address (`publicUrl`: `/p/<slug>/`, or `https://<slug>.<SITES_DOMAIN>/`) at a deployment: the one named, or the newest `production` deployment. Publishing an older deployment is a rollback: nothing is rebuilt, the address serves it at once (a CDN within a minute: `s-maxage=60`). Emits `app.published` with `previousDeploymentId`.
         */
        post: operations["PublishingController_publish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/unpublish": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unpublish an app
         * @description The public address answers 410 (Gone) until the app is published again; deployment urls keep working. Emits `app.unpublished`. Not published: 409.
         */
        post: operations["PublishingController_unpublish"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/split": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The running split test and its results
         * @description Per variant: `visitors` and `signups` since `startedAt` (its day from the raw analytics rows after it, later days from the rollups by deployment), `conversionRate` (percent) and `chanceToBeatFirst`: Φ(z) of the pooled two-proportion z-test of its conversion against the first variant’s, `null` when it cannot be computed (either has no visitors, or the pooled rate is 0 or 1). 404 when no test runs.
         */
        get: operations["SplitController_get"];
        /**
         * Start a split test between deployments
         * @description From now on the published address (`<slug>.<SITES_DOMAIN>`, `/p/<slug>/`, custom domains) answers each visitor with one of the variants, by weight, chosen from their daily visitor id: the same visitor sees the same variant all day, with no cookie or storage. Answers carry `Cache-Control: private` and `Vary: User-Agent`. 2–4 `production` deployments of a published app, weights 1–99 summing to 100. A test already running is ended first (`split.ended`, `endedBy: "replaced"`). Emits `split.started`; audited (`split.started`, and `split.ended` for a test it replaces).
         */
        put: operations["SplitController_start"];
        post?: never;
        /**
         * End the split test
         * @description The published deployment serves everyone again. Emits `split.ended` with the results; audited (`split.ended`). Publishing any deployment ends a test too.
         */
        delete: operations["SplitController_end"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalogue of published apps (JSON, no auth)
         * @description Apps that are published and `public`, newest publication first, in the list shape. Unlisted, draft and unpublished apps never appear. `GET /catalog/` is the same as a page.
         */
        get: operations["CatalogController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/catalog/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The catalogue of published apps (a page)
         * @description The same apps as `GET /catalog`, as HTML.
         */
        get: operations["CatalogController_page"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an app's custom domains
         * @description Newest first, each with its records and the last check.
         */
        get: operations["DomainsController_list"];
        put?: never;
        /**
         * Add a custom domain to an app
         * @description Answers the records to create: the TXT record `verification` (proves you control the name) and the CNAME `target` (sends its visitors here). The domain is `pending` until the TXT record is found — checked every minute for an hour, then hourly, `failed` after 7 days, or now with `POST /v1/domains/{id}/verify`. At most 10 per app. Several accounts may claim a name; the first to verify it owns it.
         */
        post: operations["DomainsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a custom domain */
        get: operations["DomainsController_get"];
        put?: never;
        post?: never;
        /**
         * Delete a custom domain
         * @description The name stops serving the app at once, and the TLS proxy gets no new certificate for it. Emits `domain.deleted`.
         */
        delete: operations["DomainsController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/domains/{id}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a domain's DNS now
         * @description Looks for the TXT record now and answers the domain: `verified` once it holds the value (emits `domain.verified`; the name serves the app from then on), else as it was, with `lastCheck` saying what was found (`no_record`, `wrong_value`, `resolver_error` — a lookup never takes more than a few seconds). `configured` says whether the name points at the target yet. 409 when another account verified the name first.
         */
        post: operations["DomainsController_verify"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/internal/tls/ask": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * May a TLS proxy get a certificate for this name? (Caddy's on-demand `ask`)
         * @description 200 for a name that serves something now: a verified custom domain of a published app, `<slug>.<SITES_DOMAIN>` of a published app, a live deployment's own `<label>.<SITES_DOMAIN>` only when the operator sets TLS_ASK_DEPLOYMENT_LABELS, the API's own host; 404 for anything else — pending or lapsed domains, drafts, unpublished apps, made-up names, a missing or malformed `domain`. TLS_ASK_RATE_LIMIT_MAX asks per minute per client (429 past it: the proxy takes it as a no). No credentials: only the proxy should reach it, over the internal network; the public proxy refuses `/internal/*`. It answers only yes or no.
         */
        get: operations["TlsAskController_ask"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users
         * @description Newest first; of one app with `appId` (which must be one of your apps), else of every app.
         */
        get: operations["UsersController_list"];
        put?: never;
        /**
         * Sign a person up to an app
         * @description The e-mail is trimmed and lowercased; the same e-mail twice in one app is a 409. Emits `user.created`.
         */
        post: operations["UsersController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a user */
        get: operations["UsersController_get"];
        put?: never;
        post?: never;
        /**
         * Erase a user
         * @description Deletes the row: the e-mail is gone from the database. Emits `user.deleted` (id and appId only).
         */
        delete: operations["UsersController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sites/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A served landing page (no auth, outside /v1)
         * @description `/sites/<deploymentId>/` serves that deployment; `/sites/<appId>/<env>/` the newest deployment of the app in that environment; `/p/<slug>/` (and `https://<slug>.<SITES_DOMAIN>/`) the deployment the app publishes — 410 once unpublished, 404 while a draft, 301 from a slug given up in the last 30 days. `…/thanks` is the page after a sign-up. Without the trailing slash: 301 to it. Deployment urls and aliases answer `X-Robots-Tag: noindex`; the public address does not, and may be cached by a CDN for a minute (`Cache-Control: public, max-age=0, s-maxage=60`, `ETag` per deployment; `If-None-Match` → 304). Every value is HTML-escaped; no scripts. A deployment with files of its own is served only on its own origin: any path under its addresses here answers 308 to the same path there.
         */
        get: operations["SitesController_serve[0]"];
        put?: never;
        /**
         * Sign up through a landing page's form (no auth, no JavaScript needed)
         * @description Posted by the form of a served page to `…/signup` (under any of its addresses), with `email`, `website` (a honeypot that must stay empty) and `token` (signed by the page). A new e-mail becomes a user of the app (`user.created` with `source: "landing-page"` and the deployment) and the answer is 303 to `…/thanks`. The same 303 answers an e-mail already signed up and any spam (honeypot filled; token missing, forged, older than 2 h or younger than 2 s), which store nothing. An invalid e-mail: 400 with the page again and the message next to the field. More than 5 posts a minute from one visitor (salted IP hash, IPv6 by /64) to one app, through any of its addresses: 429 page. A deployment whose page has the form turned off, or of a deleted app: 404.
         */
        post: operations["SitesController_signup[0]"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/p/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A served landing page (no auth, outside /v1)
         * @description `/sites/<deploymentId>/` serves that deployment; `/sites/<appId>/<env>/` the newest deployment of the app in that environment; `/p/<slug>/` (and `https://<slug>.<SITES_DOMAIN>/`) the deployment the app publishes — 410 once unpublished, 404 while a draft, 301 from a slug given up in the last 30 days. `…/thanks` is the page after a sign-up. Without the trailing slash: 301 to it. Deployment urls and aliases answer `X-Robots-Tag: noindex`; the public address does not, and may be cached by a CDN for a minute (`Cache-Control: public, max-age=0, s-maxage=60`, `ETag` per deployment; `If-None-Match` → 304). Every value is HTML-escaped; no scripts. A deployment with files of its own is served only on its own origin: any path under its addresses here answers 308 to the same path there.
         */
        get: operations["SitesController_serve[1]"];
        put?: never;
        /**
         * Sign up through a landing page's form (no auth, no JavaScript needed)
         * @description Posted by the form of a served page to `…/signup` (under any of its addresses), with `email`, `website` (a honeypot that must stay empty) and `token` (signed by the page). A new e-mail becomes a user of the app (`user.created` with `source: "landing-page"` and the deployment) and the answer is 303 to `…/thanks`. The same 303 answers an e-mail already signed up and any spam (honeypot filled; token missing, forged, older than 2 h or younger than 2 s), which store nothing. An invalid e-mail: 400 with the page again and the message next to the field. More than 5 posts a minute from one visitor (salted IP hash, IPv6 by /64) to one app, through any of its addresses: 429 page. A deployment whose page has the form turned off, or of a deleted app: 404.
         */
        post: operations["SitesController_signup[1]"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ai/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate text
         * @description Generates text from a prompt with the provider this server is configured for (AI_PROVIDER).
         *     Prompts and outputs are never stored or logged; each call records only its usage (tokens, latency, model, outcome).
         *     Counted in the AI rate limit (RATE_LIMIT_AI_MAX per 60 s).
         *     Under a hard `ai.tokens` quota the generation holds `maxTokens` + the prompt's UTF-8 bytes + 32 tokens while it runs, and 402 answers
         *     when that does not fit beside what is used and held; the usage recorded after is the real count.
         *
         *     With `"stream": true` the answer is `text/event-stream`: `data: {"text": "…"}` chunks as they are generated, one
         *     `data: {"finishReason", "usage"}`, then `data: [DONE]`. A failure before the first byte is an ordinary error response;
         *     a failure after it is one last `data: {"error": true, "code", "message"}` message, without `[DONE]`.
         *     Closing the connection stops the generation.
         */
        post: operations["AiController_generate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ai/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Daily AI usage of your account
         * @description Generations and tokens per UTC day, for every credential of the account. At most 366 days per request. Needs the `analytics:read` scope (usage is account-wide reporting, like the analytics endpoints).
         */
        get: operations["AiController_getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/chat/completions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Chat completion (OpenAI-compatible)
         * @description OpenAI's Chat Completions API: point any OpenAI client at `<PUBLIC_URL>/v1` with an API key of this platform.
         *     `model` is one of `GET /v1/models`; its targets are tried in order, the next on a 429, a 5xx, a timeout or a refused connection before any output.
         *     Fields a local model cannot honour (`tools`, `n` > 1, image parts…) answer 400 naming them; an OpenAI-compatible upstream gets them as sent.
         *     Prompts and answers are never stored, logged or cached; each call records only its usage (tokens, latency, model, outcome). With AI_REDACT_PII=true, e-mail addresses and phone numbers are masked before text leaves for a remote provider.
         *     Scope `ai:generate`; counted in the AI rate limit (the plan's `aiRequestsPerMinute`), on the `ai.tokens` meter and its quota (402), and in the credential's AI budget (429 `ai_budget_exhausted`). The most tokens a call may use are held while it runs.
         *
         *     With `"stream": true` the answer is `text/event-stream`: `chat.completion.chunk` objects, with `stream_options.include_usage` a last chunk with
         *     `usage` and no `choices`, then `data: [DONE]`. A failure before the first token is an ordinary error response; a failure after it is one
         *     `data: {"error": {"message", "type", "code"}}` message (what OpenAI's clients raise as an APIError), without `[DONE]`. Closing the connection stops the generation.
         */
        post: operations["GatewayController_createChatCompletion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Models (OpenAI-compatible)
         * @description The models this server offers, OpenAI's list shape: their ids are what `model` takes. Empty when no AI is configured.
         */
        get: operations["GatewayController_listModels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/embeddings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Embeddings (OpenAI-compatible)
         * @description OpenAI's Embeddings API, on a model of `GET /v1/models` whose targets make embeddings (an upstream that offers them, or a local model).
         *     Prompts and answers are never stored, logged or cached; each call records only its usage (tokens, latency, model, outcome). With AI_REDACT_PII=true, e-mail addresses and phone numbers are masked before text leaves for a remote provider.
         *     Scope `ai:generate`; counted in the AI rate limit (the plan's `aiRequestsPerMinute`), on the `ai.tokens` meter and its quota (402), and in the credential's AI budget (429 `ai_budget_exhausted`). The most tokens a call may use are held while it runs.
         */
        post: operations["GatewayController_createEmbeddings"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Newest first; secrets are never listed.
         */
        get: operations["WebhookEndpointsController_list"];
        put?: never;
        /**
         * Create a webhook endpoint
         * @description The url must be `https://` and resolve to public addresses only. The answer holds the signing secret, shown only here.
         */
        post: operations["WebhookEndpointsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a webhook endpoint */
        get: operations["WebhookEndpointsController_get"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Its pending deliveries are dropped with it.
         */
        delete: operations["WebhookEndpointsController_delete"];
        options?: never;
        head?: never;
        /**
         * Update a webhook endpoint
         * @description Changes the fields sent; `status: Active` re-enables an endpoint the service disabled (a 410, or 5 days of failures): deliveries resume, and `recover` re-sends what failed meanwhile.
         */
        patch: operations["WebhookEndpointsController_update"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the signing secret
         * @description The new secret is shown once. For 24 hours deliveries carry two `v1=` signatures, one per secret.
         */
        post: operations["WebhookEndpointsController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event
         * @description Queues a `webhook.test` event to this endpoint only.
         */
        post: operations["WebhookEndpointsController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-send failed deliveries
         * @description Every `failed` delivery of this endpoint whose event was raised at or after `since` (within the last 14 days) is attempted again, once, oldest event first. 409 while the endpoint is Disabled: enable it first.
         */
        post: operations["WebhookEndpointsController_recover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description Newest first, each with the event's payload, its attempts (oldest first) and, while pending, when its next try is due.
         */
        get: operations["WebhookEndpointsController_deliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-deliveries/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a delivery
         * @description Queues one more attempt now: after a `failed` delivery once the receiver is fixed, or a `pending` one ahead of its next retry. 409 while an attempt is under way.
         */
        post: operations["WebhookDeliveriesController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/aggregate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Totals over a period
         * @description Visitors, visits, pageviews, bounce rate, visit duration, sign-ups (through landing pages) and conversion rate (sign-ups ÷ visitors) over the period, in UTC. Default metric: visitors. A visitor is counted once per day (visitor ids change daily, by design).
         */
        get: operations["AnalyticsController_aggregate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/timeseries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics per hour, day or month
         * @description Every interval of the period is present, zeros included. Default metrics: visitors, pageviews.
         */
        get: operations["AnalyticsController_timeseries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/breakdown": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Metrics per value of a property
         * @description Rows keyed by the property, most visitors first, in the list shape. For `page`, visits and bounces count visits that began on the page. `deployment` with `signups,conversionRate` is the funnel of each deployment’s landing page. A property keeps at most 1,000 values per day: the rest count together as one row, `(other)`.
         */
        get: operations["AnalyticsController_breakdown"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/realtime": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Visitors in the last 5 minutes */
        get: operations["AnalyticsController_realtime"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Export a period as a ZIP of CSV files
         * @description The dashboard’s tables over the period (and `filters`), one CSV each with a header row: `visitors.csv` (the timeseries, every metric, at the period’s default interval), `pages.csv`, `entry_pages.csv`, `sources.csv`, `utm_campaigns.csv`, `countries.csv`, `devices.csv`, `browsers.csv`, `operating_systems.csv`, `custom_events.csv`, `goals.csv` and `properties.csv`. RFC 4180, UTF-8; a value a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`) starts with `'`. Streamed: the period and app are checked before the first byte.
         */
        get: operations["AnalyticsController_export"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/goals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an app's goals
         * @description Oldest first, all in one page (an app has at most 50); the built-in Sign-up is not listed.
         */
        get: operations["GoalsController_list"];
        put?: never;
        /**
         * Add a goal
         * @description `{ "event": "Download" }` counts a custom event; `{ "page": "/pricing" }` or `{ "page": "/blog/*" }` counts pageviews of matching pages (`*` any characters), named `Visit <page>`. At most 50 per app. `Sign-up` is built in. A goal counts the retained events from before it was made too.
         */
        post: operations["GoalsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/goals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a goal
         * @description Its events stay; `breakdown?property=goal` no longer lists it.
         */
        delete: operations["GoalsController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/collect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Count a pageview or custom event (no auth, CORS *)
         * @description For developers’ own sites (served pages count themselves). Any well-formed body answers 202, also for unknown apps, bots and visitors who sent `Sec-GPC: 1` or `DNT: 1`, and events past 120 a minute from one visitor for one app — those are not counted (see `analytics_events_dropped_total` in /metrics). The IP and User-Agent are used to make a daily visitor id and three labels (browser, OS, device), then dropped; of the URL only the pathname and campaign tags are kept.
         */
        post: operations["CollectController_collect"];
        delete?: never;
        /**
         * CORS preflight of /collect
         * @description Any origin may post JSON to /collect.
         */
        options: operations["CollectController_preflight"];
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/js/analytics.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tracker script (under 1 KB, no cookies or storage)
         * @description Add `<script defer data-app="app_…" src="{PUBLIC_URL}/js/analytics.js"></script>` to a page: it sends a pageview on load and on every history-API navigation, and `window.analytics("name", { props })` sends a custom event.
         */
        get: operations["CollectController_script"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/reports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your e-mail reports of an app
         * @description The calling member’s own switches (a portal session, or an API key a member made); a service account or the operator’s key has none (403 `report_member_required`).
         */
        get: operations["ReportsController_get"];
        /**
         * Turn your e-mail reports of an app on or off
         * @description The calling member’s own switches (a portal session, or an API key a member made); a service account or the operator’s key has none (403 `report_member_required`). The weekly report goes on Mondays (the previous ISO week), the monthly on the 1st (the previous month), at about 06:00 UTC, to the member’s e-mail address: visitors, pageviews, sign-ups and conversion rate with their change against the period before, the top pages, sources and goals. The first one is of the first period that ends after the switch is turned on. Each has a one-click unsubscribe link. A switch left out of the body stays as it is.
         */
        put: operations["ReportsController_put"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/unsubscribe/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The unsubscribe page of a report e-mail
         * @description A page with an Unsubscribe button (a form that POSTs here); changes nothing.
         */
        get: operations["UnsubscribeController_page"];
        put?: never;
        /**
         * Unsubscribe from a report e-mail (one click)
         * @description RFC 8058: a mail client posts `List-Unsubscribe=One-Click` (the body is not required). Turns that one report off; the link then answers 404.
         */
        post: operations["UnsubscribeController_unsubscribe"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Plan and this month’s usage
         * @description Every meter with what the plan includes (null: unlimited) and whether it is a hard quota. The month is UTC.
         */
        get: operations["BillingController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/statements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Monthly statements
         * @description Newest first: this month’s (`open`, computed now), then the closed ones. A month closes on the first of the next. The plan’s price is the line with `meter: "plan"`; each meter’s overage is billed per block of `unitSize` units at `unitPriceCents`.
         */
        get: operations["BillingController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/shares": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an app's shared links
         * @description Oldest first, all in one page (at most 20), each with its url.
         */
        get: operations["AnalyticsSharesController_list"];
        put?: never;
        /**
         * Share the dashboard
         * @description `url` (`<PUBLIC_URL>/share/<token>`) shows the app’s analytics read-only, without the portal, to anyone who has it — after `password`, if set. At most 20 per app. Audited as `analytics_share.created`.
         */
        post: operations["AnalyticsSharesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/analytics/shares/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a shared link
         * @description The link answers 404 from the next request on. Audited as `analytics_share.deleted`.
         */
        delete: operations["AnalyticsSharesController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/environments/{env}/vars/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set an environment variable or secret
         * @description For the server code of the app's deployments to this environment, from the next deploy on. `name` matches `[A-Z_][A-Z0-9_]{0,63}` and does not start with `PLATFORM_`; the value is at most 64 KiB; at most 100 per environment. A secret is sealed at rest and its value is never shown again. Audited as `env_var.set` (the name only).
         */
        put: operations["EnvVarsController_set"];
        post?: never;
        /**
         * Delete an environment variable
         * @description From the next deploy on. Audited as `env_var.deleted`.
         */
        delete: operations["EnvVarsController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/apps/{appId}/environments/{env}/vars": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an environment's variables
         * @description By name; secrets without their values.
         */
        get: operations["EnvVarsController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        EventDto: {
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            createdAt: string;
            /**
             * @example {
             *       "id": "usr_01JC3ZB4N6P8Q0R2S4T6V8W0XY",
             *       "email": "ada@example.com",
             *       "appId": "app_01JC3Z8W5Q4M0B7T2K9X1D6F3H"
             *     }
             */
            data: {
                [key: string]: unknown;
            };
            /** @example evt_01JC3ZE8S0T2V4W6X8Y0Z2A4B6 */
            id: string;
            /** @example user.created */
            event: string;
        };
        EventPageDto: {
            /** @description Newest first */
            data: components["schemas"]["EventDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        ErrorBody: {
            /**
             * @example true
             * @enum {boolean}
             */
            error: true;
            /**
             * @description Equals the HTTP status
             * @example 400
             */
            code: number;
            /** @example appId must be a string */
            message: string;
            /**
             * @description Why, as a stable machine-readable string (`app_not_found`, `idempotency_key_in_flight`…), for the errors the service raises itself
             * @example app_not_found
             */
            reason?: string;
            /**
             * @description The x-request-id of the failed request
             * @example 5f0c2f0e-8c1e-4a39-9f0c-2f0e8c1e4a39
             */
            requestId?: string;
            /** @description The problems found, for validation errors: the first 20 (the message then says how many more there were) */
            details?: string[];
        };
        AuditActorDto: {
            /**
             * @example member
             * @enum {string}
             */
            type: "member" | "credential" | "operator";
            /**
             * @description A member's id, an API key's or access token's id, or `operator`.
             * @example mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H
             */
            id: string;
            /**
             * @description A member's e-mail, a key's name, `admin token`.
             * @example ada@example.com
             */
            label: string;
        };
        AuditTargetDto: {
            /** @example api_key */
            type: string;
            /** @example key_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
        };
        AuditEntryDto: {
            /**
             * Format: date-time
             * @example 2026-11-25T09:41:00.000Z
             */
            at: string;
            /**
             * @example api_key.created
             * @enum {string}
             */
            action: "sign_in.succeeded" | "sign_in.failed" | "sign_in.locked" | "sign_in.unlocked" | "mfa.enrolled" | "mfa.removed" | "mfa.recovery_codes_regenerated" | "mfa.policy_changed" | "sso.configured" | "sso.removed" | "sso.domain_verified" | "sso.domain_lapsed" | "member.invited" | "member.invitation_revoked" | "member.joined" | "member.role_changed" | "member.removed" | "api_key.created" | "api_key.revoked" | "api_key.updated" | "service_account.created" | "service_account.revoked" | "service_account.updated" | "webhook_endpoint.created" | "webhook_endpoint.updated" | "webhook_endpoint.deleted" | "webhook_endpoint.secret_rotated" | "plan.changed" | "app.deleted" | "domain.added" | "domain.verified" | "domain.deleted" | "domain.lapsed" | "users.exported" | "user.erased" | "env_var.set" | "env_var.deleted" | "split.started" | "split.ended" | "analytics_share.created" | "analytics_share.deleted";
            /**
             * @description The client address truncated to its /24 (IPv4) or /48 (IPv6)
             * @example 203.0.113.0/24
             */
            ip: string | null;
            /** @example aud_01JC3ZE8S0T2V4W6X8Y0Z2A4B6 */
            id: string;
            actor: components["schemas"]["AuditActorDto"];
            target: components["schemas"]["AuditTargetDto"];
        };
        AuditEntryPageDto: {
            /** @description Newest first */
            data: components["schemas"]["AuditEntryDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        CreateApiKeyDto: {
            /**
             * @description A label to recognise the key by.
             * @example ci-deployer
             */
            name: string;
            /**
             * @description What the key may do; default: the scopes of the credential creating it. A key can never
             *     get a scope its creator lacks.
             * @example [
             *       "apps:read",
             *       "deployments:write"
             *     ]
             */
            scopes?: ("*" | "apps:read" | "apps:write" | "deployments:write" | "users:read" | "users:write" | "webhooks:read" | "webhooks:write" | "events:read" | "ai:generate" | "analytics:read" | "billing:read" | "keys:write" | "members:read" | "members:write" | "audit:read")[];
            /** @example 50000 */
            aiTokensPerDay?: number | null;
            /** @example 1000000 */
            aiTokensPerMonth?: number | null;
        };
        CreatedApiKeyDto: {
            /**
             * @description The key itself. Shown only in this response: store it now.
             * @example sk_7HqLx2cV0pR8sT4wY6zA1bC3dE5fG7hJ9kL0mN2x9Zc
             */
            key: string;
            /** @example key_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example ci-deployer */
            name: string;
            /**
             * @example [
             *       "apps:read",
             *       "deployments:write"
             *     ]
             */
            scopes: string[];
            /**
             * @description The key's first characters, for recognising it.
             * @example sk_7Hq
             */
            prefix: string;
            /**
             * @description The key's last four characters.
             * @example x9Zc
             */
            last4: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            /**
             * @description Its AI budget per UTC day (null: none of its own).
             * @example 50000
             */
            aiTokensPerDay: number | null;
            /** @description Its AI budget per UTC month (null: none of its own). */
            aiTokensPerMonth: number | null;
        };
        UpdateApiKeyDto: {
            /** @example 50000 */
            aiTokensPerDay?: number | null;
            /** @example 1000000 */
            aiTokensPerMonth?: number | null;
        };
        ApiKeyDto: {
            /** @example key_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example ci-deployer */
            name: string;
            /**
             * @example [
             *       "apps:read",
             *       "deployments:write"
             *     ]
             */
            scopes: string[];
            /**
             * @description The key's first characters, for recognising it.
             * @example sk_7Hq
             */
            prefix: string;
            /**
             * @description The key's last four characters.
             * @example x9Zc
             */
            last4: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            lastUsedAt: string | null;
            /**
             * @description Its AI budget per UTC day (null: none of its own).
             * @example 50000
             */
            aiTokensPerDay: number | null;
            /** @description Its AI budget per UTC month (null: none of its own). */
            aiTokensPerMonth: number | null;
        };
        ApiKeyListDto: {
            data: components["schemas"]["ApiKeyDto"][];
        };
        CreateServiceAccountDto: {
            /** @example nightly-deployer */
            name: string;
            /**
             * @description The most its access tokens may hold.
             * @example [
             *       "apps:read",
             *       "deployments:write"
             *     ]
             */
            scopes: ("*" | "apps:read" | "apps:write" | "deployments:write" | "users:read" | "users:write" | "webhooks:read" | "webhooks:write" | "events:read" | "ai:generate" | "analytics:read" | "billing:read" | "keys:write" | "members:read" | "members:write" | "audit:read")[];
            /** @example 50000 */
            aiTokensPerDay?: number | null;
            /** @example 1000000 */
            aiTokensPerMonth?: number | null;
        };
        CreatedServiceAccountDto: {
            /**
             * @description Shown only in this response: store it now.
             * @example cs_8Jk2LmN4pQ6rS8tU0vW2xY4zA6bC8dE0fG2hJ4kL
             */
            clientSecret: string;
            /** @example sa_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example nightly-deployer */
            name: string;
            /** @example cid_Q2x8vL0cR4pT7sW1yZ3bD5fH9kM2nP6q */
            clientId: string;
            /**
             * @example [
             *       "apps:read",
             *       "deployments:write"
             *     ]
             */
            scopes: string[];
            /** Format: date-time */
            createdAt: string;
            /**
             * @description The AI budget its tokens share per UTC day (null: none of its own).
             * @example 50000
             */
            aiTokensPerDay: number | null;
            /** @description The AI budget its tokens share per UTC month (null: none of its own). */
            aiTokensPerMonth: number | null;
        };
        UpdateServiceAccountDto: {
            /** @example 50000 */
            aiTokensPerDay?: number | null;
            /** @example 1000000 */
            aiTokensPerMonth?: number | null;
        };
        ServiceAccountDto: {
            /** @example sa_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example nightly-deployer */
            name: string;
            /** @example cid_Q2x8vL0cR4pT7sW1yZ3bD5fH9kM2nP6q */
            clientId: string;
            /**
             * @example [
             *       "apps:read",
             *       "deployments:write"
             *     ]
             */
            scopes: string[];
            /** Format: date-time */
            createdAt: string;
            /**
             * @description The AI budget its tokens share per UTC day (null: none of its own).
             * @example 50000
             */
            aiTokensPerDay: number | null;
            /** @description The AI budget its tokens share per UTC month (null: none of its own). */
            aiTokensPerMonth: number | null;
        };
        ServiceAccountListDto: {
            data: components["schemas"]["ServiceAccountDto"][];
        };
        TokenRequestDto: {
            /** @example client_credentials */
            grant_type: string;
            /**
             * @description Space-separated subset of the service account's scopes; default: all of them.
             * @example apps:read
             */
            scope?: string;
            client_id?: string;
            client_secret?: string;
        };
        TokenResponseDto: {
            /** @example at_9XkLmN2pQ4rS6tU8vW0xY2zA4bC6dE8fG0hJ2kL4 */
            access_token: string;
            /**
             * @example Bearer
             * @enum {string}
             */
            token_type: "Bearer";
            /**
             * @description Seconds until it expires.
             * @example 3600
             */
            expires_in: number;
            scope: string;
        };
        OAuthErrorDto: {
            /** @example invalid_client */
            error: string;
            error_description: string;
            /**
             * @description The HTTP status.
             * @example 401
             */
            code: number;
            message: string;
        };
        TokenParamDto: {
            /** @description The access token (or API key, for introspection) to look at. */
            token: string;
            /**
             * @description Optional hint, ignored.
             * @example access_token
             * @enum {string}
             */
            token_type_hint?: "access_token" | "refresh_token";
        };
        IntrospectionDto: {
            /** @example true */
            active: boolean;
            /** @example apps:read */
            scope?: string;
            /** @description The service account's client id. */
            client_id?: string;
            /** @example Bearer */
            token_type?: string;
            /** @description Expiry, seconds since the epoch. */
            exp?: number;
            /** @description Issued at, seconds since the epoch. */
            iat?: number;
            /** @description The account that owns the token. */
            sub?: string;
        };
        CreateAccountDto: {
            /**
             * Format: email
             * @description E-mail address of the developer who owns the account.
             * @example dev@example.com
             */
            email: string;
        };
        CreatedAccountDto: {
            /** @example acc_01JC3Z8W5Q4M0B7T2K9X1D6F3H8R */
            accountId: string;
            /** @example dev@example.com */
            email: string;
            /**
             * @description The account's first API key, with every scope (`*`). Shown only here: store it now.
             * @example sk_7HqLx2cV0pR8sT4wY6zA1bC3dE5fG7hJ9kL0mN2x9Zc
             */
            apiKey: string;
            /**
             * @description Where the developer sets a portal password: single use, valid 7 days. Shown only here.
             * @example http://localhost:3000/portal/invite/q8V1mC0rX4Ue7tYb2NfK9sLwZ3aHjD6p
             */
            portalInviteUrl: string;
        };
        MeterUsageDto: {
            /**
             * @example ai.tokens
             * @enum {string}
             */
            meter: "api.requests" | "ai.tokens" | "deployments" | "analytics.events" | "webhook.deliveries" | "bandwidth.bytes" | "storage.bytes" | "functions.requests" | "functions.duration_ms";
            /**
             * @description Included each month; null: unlimited
             * @example 100000
             */
            included: number | null;
            /**
             * @description used ÷ included, one decimal; null when unlimited
             * @example 81.2
             */
            percent: number | null;
            /** @example 81234 */
            used: number;
            /**
             * @description Past `included`, metered requests answer 402 (otherwise overage is billed).
             * @example true
             */
            hard: boolean;
            /**
             * @description `functions.duration_ms` only: the memory limit of each function instance (MiB), beside the wall time it is billed by.
             * @example 128
             */
            memoryMb?: number;
        };
        PlanRefDto: {
            /** @example pro */
            id: string;
            /** @example Pro */
            name: string;
        };
        PeriodDto: {
            /**
             * @description First day of the month (UTC).
             * @example 2026-11-01
             */
            start: string;
            /**
             * @description First day of the next month (exclusive).
             * @example 2026-12-01
             */
            end: string;
        };
        AdminAccountDto: {
            usage: components["schemas"]["MeterUsageDto"][];
            /** Format: date-time */
            createdAt: string;
            /** @example acc_01JC3Z7Y2X0W9V8U7T6S5R4Q3P */
            accountId: string;
            /** @example dev@example.com */
            email: string;
            plan: components["schemas"]["PlanRefDto"];
            period: components["schemas"]["PeriodDto"];
        };
        PortalInviteDto: {
            /**
             * @description Where the developer sets a new portal password: single use, valid 7 days. Shown only here; the
             *     account's earlier invite links stop working.
             * @example http://localhost:3000/portal/invite/q8V1mC0rX4Ue7tYb2NfK9sLwZ3aHjD6p
             */
            portalInviteUrl: string;
        };
        ChangePlanDto: {
            /**
             * @description A plan of this server: `free`, `pro`, `enterprise`, or one PLANS_FILE adds.
             * @example pro
             */
            plan: string;
        };
        SentReportsDto: {
            /**
             * @description Reports the SMTP server took in this run.
             * @example 3
             */
            sent: number;
            /**
             * @description Reports the SMTP server refused or could not take: tried again at the next run (at most 5 tries each).
             * @example 0
             */
            failed: number;
            /**
             * @description Reports another worker is sending at this moment.
             * @example 0
             */
            skipped: number;
        };
        MemberDto: {
            /**
             * @example developer
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
            /**
             * Format: date-time
             * @example 2026-11-25T09:41:00.000Z
             */
            createdAt: string;
            /** @example mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example ada@example.com */
            email: string;
        };
        MemberPageDto: {
            /** @description Newest first */
            data: components["schemas"]["MemberDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        CreateInvitationDto: {
            /**
             * @description The role the member gets on joining, never above the sender's role when the invitation is used; only an owner signed in to the portal invites an owner
             * @example developer
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
            /**
             * Format: email
             * @description Who is invited: the link works for this e-mail only.
             * @example grace@example.com
             */
            email: string;
        };
        InvitationDto: {
            /**
             * @example developer
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
            /**
             * Format: date-time
             * @example 2026-12-02T09:41:00.000Z
             */
            expiresAt: string;
            /**
             * @description The link to join, single use, for this e-mail only, valid 7 days — in this answer only, and only when it was not e-mailed
             * @example https://platform.example.com/portal/join/3q2-7Hq0aVx9Lk2mN4pR8sT6wY1zB5cD
             */
            invitationUrl: string | null;
            /** @example inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example grace@example.com */
            email: string;
            /**
             * @description Whether the link was e-mailed (the server has SMTP_URL).
             * @example false
             */
            emailed: boolean;
        };
        PendingInvitationDto: {
            /**
             * @example developer
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
            /**
             * @description The member who sent it (null: a credential no member created). It is revoked when they are removed.
             * @example mem_01JC3Z8W5Q4M0B7T2K9X1D6F3H
             */
            invitedBy: string | null;
            /**
             * Format: date-time
             * @example 2026-11-25T09:41:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2026-12-02T09:41:00.000Z
             */
            expiresAt: string;
            /** @example inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /** @example grace@example.com */
            email: string;
            /**
             * @description Whether its link was e-mailed.
             * @example true
             */
            emailed: boolean;
        };
        PendingInvitationPageDto: {
            /** @description Newest first */
            data: components["schemas"]["PendingInvitationDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        ChangeRoleDto: {
            /**
             * @description Only an owner signed in to the portal makes or demotes an owner (never an API key or access token); the last owner cannot be demoted
             * @example admin
             * @enum {string}
             */
            role: "owner" | "admin" | "developer" | "viewer";
        };
        SsoDomainCheckDto: {
            /**
             * Format: date-time
             * @example 2026-11-25T10:31:00.000Z
             */
            checkedAt: string;
            /**
             * @example no_record
             * @enum {string}
             */
            result: "verified" | "no_record" | "wrong_value" | "resolver_error" | "taken";
            /** @example [] */
            found: string[];
            /** @example No TXT record at _platform-sso-challenge.acme.com yet */
            message: string;
        };
        SsoDomainVerificationDto: {
            /**
             * @example TXT
             * @enum {string}
             */
            type: "TXT";
            /**
             * @description Where the TXT record goes.
             * @example _platform-sso-challenge.acme.com
             */
            name: string;
            /**
             * @description What it holds, exactly.
             * @example Xk3b9QpL2mN7vR4tY8wZ1aC5dE6fG0hJ
             */
            value: string;
        };
        SsoDomainDto: {
            /**
             * @description `pending` until its TXT record is found (`POST /v1/sso/domains/{domain}/verify`); `verified` routes sign-ins and is checked again daily; `lapsed` once the record has been gone for the grace period (`DOMAIN_PROOF_GRACE_HOURS`): it routes nothing until proven again
             * @example pending
             * @enum {string}
             */
            status: "pending" | "verified" | "lapsed";
            /** @description The last DNS check; null before the first */
            lastCheck: components["schemas"]["SsoDomainCheckDto"] | null;
            /**
             * Format: date-time
             * @example null
             */
            verifiedAt: string | null;
            /**
             * Format: date-time
             * @description When a verified domain is checked again (daily; hourly while its record is missing); null for the others
             * @example null
             */
            nextCheckAt: string | null;
            /**
             * Format: date-time
             * @description When a check first found the record of a verified domain gone (its grace period runs from then); null while it is there
             * @example null
             */
            proofMissingSince: string | null;
            /** @example acme.com */
            domain: string;
            verification: components["schemas"]["SsoDomainVerificationDto"];
        };
        SsoSettingsDto: {
            /**
             * @example [
             *       "acme.com"
             *     ]
             */
            domains: string[];
            /** @description Each domain with the TXT record that proves it: sign-ins of a domain go to this provider only once it is verified */
            domainProofs: components["schemas"]["SsoDomainDto"][];
            /**
             * @example developer
             * @enum {string}
             */
            defaultRole: "admin" | "developer" | "viewer";
            /**
             * Format: date-time
             * @example 2026-11-25T09:41:00.000Z
             */
            updatedAt: string;
            /** @example https://acme.okta.com */
            issuer: string;
            /** @example 0oa1b2c3d4e5f6g7h8i9 */
            clientId: string;
            /**
             * @description Always true: a secret is stored (it is never answered).
             * @example true
             */
            clientSecretSet: boolean;
            /**
             * @description Whether passwords are refused for the account's members (owners keep password + MFA).
             * @example false
             */
            required: boolean;
            /**
             * @description The redirect URI to register at the provider.
             * @example https://platform.example.com/portal/sso/callback
             */
            redirectUri: string;
        };
        PutSsoDto: {
            /**
             * Format: uri
             * @description The OpenID Connect issuer URL (https; discovery is read from <issuer>/.well-known/openid-configuration before saving)
             * @example https://acme.okta.com
             */
            issuer: string;
            /**
             * @description The client secret: required the first time, then optional (omitted: the stored one is kept). Write-only: never answered
             * @example kR2x…
             */
            clientSecret?: string;
            /**
             * @description E-mail domains that sign in through this provider (lower case). Each must be proven with a TXT record (see `domainProofs`) before it routes sign-ins; a proven domain belongs to one account
             * @example [
             *       "acme.com"
             *     ]
             */
            domains: string[];
            /**
             * @description The role of a member created at their first SSO sign-in (never owner)
             * @example developer
             * @enum {string}
             */
            defaultRole: "admin" | "developer" | "viewer";
            /** @description SSO required (default false): passwords are refused for the account's members (owners keep password + MFA) */
            required?: boolean;
            /**
             * @description The client (application) id registered at the provider.
             * @example 0oa1b2c3d4e5f6g7h8i9
             */
            clientId: string;
        };
        CreateAppDto: {
            /**
             * @description Shown on the deployed page; surrounding spaces are trimmed.
             * @example Recipe Box
             */
            name: string;
            /**
             * @description Shown under the name on the deployed page.
             * @example Share family recipes with the people you cook for.
             */
            description?: string | null;
            /**
             * @description The public address, unique on the server: 3–40 lowercase letters, digits and inner hyphens.
             *     Default: made from the name (`Recipe Box` → `recipe-box`, or `recipe-box-2` when taken). Taken: 409.
             * @example recipe-box
             */
            slug?: string;
            /**
             * @description `public`: listed in the catalogue once published; `unlisted` (default): only at its address.
             * @example public
             * @enum {string}
             */
            visibility?: "public" | "unlisted";
        };
        AppDto: {
            /**
             * @description `public` apps appear in the catalogue once published; `unlisted` ones only at their address.
             * @example public
             * @enum {string}
             */
            visibility: "public" | "unlisted";
            /**
             * @example published
             * @enum {string}
             */
            publishState: "draft" | "published" | "unpublished";
            /**
             * @description The deployment the public address serves (null unless published).
             * @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K
             */
            publishedDeploymentId: string | null;
            /**
             * Format: date-time
             * @example 2025-11-22T04:30:00.000Z
             */
            publishedAt: string | null;
            /**
             * @description Where the published app is served (null unless published).
             * @example http://localhost:3000/p/recipe-box/
             */
            publicUrl: string | null;
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            updatedAt: string;
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
            /** @example Recipe Box */
            name: string;
            /** @example Share family recipes with the people you cook for. */
            description: string | null;
            /**
             * @description The app's public address, unique on the server: `/p/<slug>/` (and `<slug>.<SITES_DOMAIN>`).
             * @example recipe-box
             */
            slug: string;
        };
        AppPageDto: {
            /** @description Newest first */
            data: components["schemas"]["AppDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        UpdateAppDto: {
            /** @example Recipe Box Pro */
            name?: string;
            /** @example Now with shopping lists. */
            description?: string | null;
            /**
             * @description The public address, unique on the server: 3–40 lowercase letters, digits and inner hyphens.
             *     The old slug keeps redirecting (301) to the new one for 30 days. Taken: 409.
             * @example recipe-box
             */
            slug?: string;
            /**
             * @description `public`: listed in the catalogue once published; `unlisted` (default): only at its address.
             * @example public
             * @enum {string}
             */
            visibility?: "public" | "unlisted";
        };
        HeroDto: {
            /** @example Family recipes, finally in one place */
            headline: string;
            /** @example Collect, share and cook the recipes your family loves. */
            subheadline: string;
            /** @example Get early access */
            ctaLabel: string;
        };
        FeatureDto: {
            /** @example Every recipe, one tap away */
            title: string;
            /** @example Import from any website or snap a photo of grandmas card. */
            body: string;
        };
        FaqDto: {
            /** @example Is it free? */
            question: string;
            /** @example Yes, for families of up to ten people. */
            answer: string;
        };
        CtaDto: {
            /** @example Start your family cookbook today */
            headline: string;
        };
        SignupFormDto: {
            /**
             * @description Show the sign-up form (a deployment without it answers 404 to sign-ups).
             * @example true
             */
            enabled: boolean;
            /** @example Join the waitlist */
            buttonLabel: string;
            /**
             * @description Shown under the button.
             * @example We will only use your e-mail to tell you about Recipe Box.
             */
            consentText: string;
            /**
             * @description Shown on the thanks page.
             * @example Thanks! Youre on the list.
             */
            successMessage: string;
        };
        ThemeDto: {
            /**
             * @description The accent colour of buttons and highlights.
             * @example #5146E5
             */
            accent: string;
        };
        LandingPageDto: {
            /**
             * @example 1
             * @enum {number}
             */
            schemaVersion: 1;
            hero: components["schemas"]["HeroDto"];
            features: components["schemas"]["FeatureDto"][];
            faq: components["schemas"]["FaqDto"][];
            cta: components["schemas"]["CtaDto"];
            signup: components["schemas"]["SignupFormDto"];
            theme: components["schemas"]["ThemeDto"];
        };
        LandingPageResponseDto: {
            /**
             * @description `default`: built from the app's name and description (never saved); `manual`: PUT; `generated`: written by AI.
             * @example generated
             * @enum {string}
             */
            source: "default" | "manual" | "generated";
            page: components["schemas"]["LandingPageDto"];
            /**
             * Format: date-time
             * @description When the page last changed; for a default page, when the app did.
             * @example 2026-11-22T04:20:00.000Z
             */
            updatedAt: string;
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
        };
        GenerateLandingPageDto: {
            /**
             * @description The sections to (re)write; the others keep their content. Default: all.
             * @example [
             *       "hero",
             *       "features"
             *     ]
             */
            sections?: ("hero" | "features" | "faq" | "cta")[];
            /**
             * @description What to stress (audience, tone, the one thing that matters). Optional.
             * @example For busy parents; warm and short.
             */
            prompt?: string;
        };
        FileDto: {
            /**
             * @description The SHA-256 of the content (lowercase hex).
             * @example 3f9a1c2be0b8d5e4a1f7c6d9b2e3a4f5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1
             */
            sha256: string;
            /**
             * @description Its size in bytes.
             * @example 48213
             */
            size: number;
        };
        SiteRedirectDto: {
            /**
             * @example 301
             * @enum {number}
             */
            status: 301 | 302 | 307 | 308;
            /**
             * @description A path: literal segments, `:name` segments and a final `*`.
             * @example /blog/:slug
             */
            source: string;
            /**
             * @description A path or an http(s) URL, using the source's `:name` and `*`.
             * @example /posts/:slug
             */
            destination: string;
        };
        SiteHeaderRuleDto: {
            /**
             * @description Header names to values. Not hop-by-hop headers, Set-Cookie, Content-Length, Content-Encoding or Transfer-Encoding.
             * @example {
             *       "Access-Control-Allow-Origin": "*"
             *     }
             */
            headers: {
                [key: string]: string;
            };
            /**
             * @description The paths (same patterns as redirects).
             * @example /assets/*
             */
            source: string;
        };
        FunctionsConfigDto: {
            /**
             * @description 1–20 paths whose requests (any method) go to the function: literal, or ending in a `/*` segment that matches the
             *     rest of the path (`/api/*` matches `/api` too). None may cover `/signup`, `/thanks` or `/_platform/*`.
             * @default [
             *       "/api/*"
             *     ]
             * @example [
             *       "/api/*"
             *     ]
             */
            routes: string[];
            /**
             * @description One of the deployment's files, inside a folder: an ES module (JavaScript or TypeScript) whose default export has
             *     `fetch(request, env, ctx)`. Every file of that folder is the function's code and is never served. A deploy whose
             *     entry is missing, does not load or has no default `fetch`: 400 `function_invalid` with `loaderMessage`.
             * @example /_server/index.js
             */
            entry: string;
        };
        SiteConfigDto: {
            redirects?: components["schemas"]["SiteRedirectDto"][];
            headers?: components["schemas"]["SiteHeaderRuleDto"][];
            /** @description Server code run beside the files, on the deployment's origin (routes first, then files). */
            functions?: components["schemas"]["FunctionsConfigDto"];
            /**
             * @description Serve `/about` from `/about.html`.
             * @example false
             */
            cleanUrls?: boolean;
            /**
             * @description Answer unknown paths without a file extension with `/index.html` (client-side routing).
             * @example true
             */
            spa?: boolean;
        };
        DeployDto: {
            /**
             * @description Environment name: a lowercase letter, then up to 31 lowercase letters, digits or hyphens.
             * @example production
             */
            env: string;
            /**
             * @description The app's own files: each path (starting with `/`, at most 1,024 bytes, no `.`/`..`/empty segment, backslash or control character; not `/signup`, `/thanks` or `/_platform/…`) mapped to the SHA-256 of a file this account uploaded (`PUT /v1/files/:sha256`). At most 20,000 files and 500 MiB. Leave it out to deploy the landing page alone.
             * @example {
             *       "/index.html": "9d1e7c55a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7",
             *       "/assets/app.3f9a1c2b.js": "3f9a1c2be0b8d5e4a1f7c6d9b2e3a4f5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1"
             *     }
             */
            files?: {
                [key: string]: string;
            };
            /** @description How the files are served (with `files` only). */
            config?: components["schemas"]["SiteConfigDto"];
            /**
             * @description One of your apps.
             * @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H
             */
            appId: string;
        };
        DeploymentFilesDto: {
            /** @example 14 */
            count: number;
            /**
             * @description The sum of the files' sizes.
             * @example 482133
             */
            bytes: number;
        };
        DeployResultDto: {
            /**
             * @example success
             * @enum {string}
             */
            status: "success";
            /**
             * Format: date-time
             * @example 2025-11-22T04:21:00.000Z
             */
            createdAt: string;
            /** @description Deployed with files only: how many, how large. */
            files?: components["schemas"]["DeploymentFilesDto"];
            /** @description Deployed with files only: how they are served (null without a config). */
            config?: components["schemas"]["SiteConfigDto"] | null;
            /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
            deploymentId: string;
            /**
             * @description Where it is served, without authentication: `{PUBLIC_URL}/sites/<deploymentId>/` for a landing page alone, the
             *     deployment's own origin (`<scheme>://<label>.<SITES_DOMAIN>/`) for one with files.
             * @example http://localhost:3000/sites/dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/
             */
            url: string;
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
            /** @example production */
            env: string;
        };
        DeploymentSnapshotDto: {
            /** @description The landing page the deployment serves (for deployments made before landing pages: the default page of the app as it was). */
            landingPage: components["schemas"]["LandingPageDto"];
            /** @example Recipe Box */
            name: string;
            /** @example Share family recipes with the people you cook for. */
            description: string | null;
        };
        DeploymentDto: {
            /**
             * @example success
             * @enum {string}
             */
            status: "success";
            /**
             * Format: date-time
             * @example 2025-11-22T04:21:00.000Z
             */
            createdAt: string;
            /** @description Deployed with files only: how many, how large. */
            files?: components["schemas"]["DeploymentFilesDto"];
            /** @description Deployed with files only: how they are served (null without a config). */
            config?: components["schemas"]["SiteConfigDto"] | null;
            snapshot: components["schemas"]["DeploymentSnapshotDto"];
            /**
             * @description With server code (`config.functions`): the names of the environment variables it took when it was deployed
             *     (values never shown).
             * @example [
             *       "API_BASE",
             *       "STRIPE_KEY"
             *     ]
             */
            variables?: string[];
            /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
            deploymentId: string;
            /**
             * @description Where it is served, without authentication: `{PUBLIC_URL}/sites/<deploymentId>/` for a landing page alone, the
             *     deployment's own origin (`<scheme>://<label>.<SITES_DOMAIN>/`) for one with files.
             * @example http://localhost:3000/sites/dep_01JC3Z9A7B2C4D6E8F0G1H2J3K/
             */
            url: string;
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
            /** @example production */
            env: string;
        };
        DeploymentPageDto: {
            /** @description Newest first */
            data: components["schemas"]["DeploymentDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        LogLineDto: {
            /**
             * @example request
             * @enum {string}
             */
            level: "debug" | "info" | "warn" | "error" | "request" | "system";
            /** @example 2026-11-29T10:00:00.120Z */
            at: string;
            message: string;
        };
        LogLineListDto: {
            data: components["schemas"]["LogLineDto"][];
        };
        PublishDto: {
            /**
             * @description The deployment to serve at the public address: any deployment of the app (an older one is a
             *     rollback). Default: the newest `production` deployment.
             * @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K
             */
            deploymentId?: string;
        };
        SplitVariantInputDto: {
            /**
             * @description A `production` deployment of the app.
             * @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K
             */
            deploymentId: string;
            /**
             * @description Its share of visitors, in percent (the weights of a test sum to 100).
             * @example 50
             */
            weight: number;
        };
        StartSplitDto: {
            /**
             * @description 2 to 4 variants, weights summing to 100; the first is the one the others are compared with.
             * @example [
             *       {
             *         "deploymentId": "dep_01JC3Z9A7B2C4D6E8F0G1H2J3K",
             *         "weight": 50
             *       },
             *       {
             *         "deploymentId": "dep_01JC40B2D4F6H8K0M2P4R6T8VW",
             *         "weight": 50
             *       }
             *     ]
             */
            variants: components["schemas"]["SplitVariantInputDto"][];
        };
        SplitVariantDto: {
            /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
            deploymentId: string;
            /** @example 50 */
            weight: number;
        };
        SplitDto: {
            variants: components["schemas"]["SplitVariantDto"][];
            /**
             * Format: date-time
             * @example 2026-11-29T09:00:00.000Z
             */
            startedAt: string;
            /** @example spl_01JC41C3E5G7J9L1N3Q5S7U9WX */
            id: string;
        };
        SplitVariantResultsDto: {
            /**
             * @description The probability (0–1, four decimals) that this variant converts better than the first: the normal CDF of the
             *     two-proportion z statistic against the first variant. Null (the portal shows —) for the first
             *     variant itself and whenever it cannot be computed: either has no visitors, or the pooled rate is 0 or 1 (no sign-ups yet, or all signed up).
             * @example 0.8413
             */
            chanceToBeatFirst: number | null;
            /**
             * @description Distinct visitors (per day: visitor ids are daily) of this deployment since the test's start (`startedAt`).
             * @example 1204
             */
            visitors: number;
            /**
             * @description Sign-ups through this deployment's form since the test's start (`startedAt`).
             * @example 61
             */
            signups: number;
            /**
             * @description `signups` / `visitors`, in percent with one decimal (0 without visitors).
             * @example 5.1
             */
            conversionRate: number;
            /** @example dep_01JC3Z9A7B2C4D6E8F0G1H2J3K */
            deploymentId: string;
            /** @example 50 */
            weight: number;
        };
        SplitResultsDto: {
            variants: components["schemas"]["SplitVariantResultsDto"][];
            /**
             * Format: date-time
             * @example 2026-11-29T09:00:00.000Z
             */
            startedAt: string;
            /** @example spl_01JC41C3E5G7J9L1N3Q5S7U9WX */
            id: string;
        };
        CatalogEntryDto: {
            /**
             * Format: date-time
             * @example 2025-11-22T04:30:00.000Z
             */
            publishedAt: string;
            /** @example recipe-box */
            slug: string;
            /** @example Recipe Box */
            name: string;
            /** @example Share family recipes with the people you cook for. */
            description: string | null;
            /** @example https://recipe-box.example-apps.com/ */
            publicUrl: string;
        };
        CatalogPageDto: {
            /** @description Newest first */
            data: components["schemas"]["CatalogEntryDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        CreateDomainDto: {
            /**
             * @description The host name to serve the app at: a DNS name (an internationalised one is stored in its ASCII
             *     form), not an IP address, `localhost`, a name under SITES_DOMAIN or the API's own host.
             * @example www.example.com
             */
            hostname: string;
        };
        DomainCheckDto: {
            /**
             * Format: date-time
             * @example 2026-11-25T10:31:00.000Z
             */
            checkedAt: string;
            /**
             * @description `verified`: the TXT record holds the value; `no_record`: no TXT record at the name; `wrong_value`:
             *     TXT records there, none with the value; `resolver_error`: the lookup failed or timed out (tried
             *     again later); `taken`: the record is right but another account verified the name first.
             * @example wrong_value
             * @enum {string}
             */
            result: "verified" | "no_record" | "wrong_value" | "resolver_error" | "taken";
            /**
             * @description The TXT values found at the name (at most 5, each cut to 100 characters).
             * @example [
             *       "an-old-value"
             *     ]
             */
            found: string[];
            /** @example The TXT record at _platform-challenge.www.example.com holds 1 other value, not the verification value */
            message: string;
        };
        DomainVerificationDto: {
            /**
             * @example TXT
             * @enum {string}
             */
            type: "TXT";
            /**
             * @description Where the TXT record goes.
             * @example _platform-challenge.www.example.com
             */
            name: string;
            /**
             * @description What it holds, exactly.
             * @example 8kQ2xZr0aB5cD8eF1gH4iJ7kL0mN3oP6
             */
            value: string;
        };
        DomainTargetDto: {
            /**
             * @example CNAME
             * @enum {string}
             */
            type: "CNAME";
            /**
             * @description The record's name: the domain itself.
             * @example www.example.com
             */
            name: string;
            /**
             * @description Where it points: the app's own host under SITES_DOMAIN (else the API's host).
             * @example recipe-box.example-apps.com
             */
            value: string;
        };
        DomainDto: {
            /**
             * @description `pending` until the TXT record is found (checked every minute for an hour, then hourly); `failed` after 7 days without it;
             *     `verified` (re-checked daily) while it serves the app; `lapsed` once a verified domain's TXT record stayed gone for the
             *     grace period (DOMAIN_PROOF_GRACE_HOURS, 72 by default): no longer served, and another account that proves control takes it.
             * @example pending
             * @enum {string}
             */
            status: "pending" | "verified" | "failed" | "lapsed";
            /** @description The last DNS check; null before the first */
            lastCheck: components["schemas"]["DomainCheckDto"] | null;
            /**
             * Format: date-time
             * @example null
             */
            verifiedAt: string | null;
            /**
             * Format: date-time
             * @description The next scheduled check: of a pending domain, or the re-check of a verified one (daily; hourly while its proof is missing)
             * @example 2026-11-25T10:32:00.000Z
             */
            nextCheckAt: string | null;
            /**
             * Format: date-time
             * @description When a re-check of the verified domain first found its TXT record gone; it lapses when the record is still gone the grace period later. Null while the record is there
             * @example null
             */
            proofMissingSince: string | null;
            /**
             * Format: date-time
             * @example 2026-11-25T10:30:00.000Z
             */
            createdAt: string;
            /** @example dom_01JC3ZK4M6N8P0Q2R4S6T8V0WX */
            id: string;
            /**
             * @description Lowercase ASCII (punycode for an internationalised name).
             * @example www.example.com
             */
            hostname: string;
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
            verification: components["schemas"]["DomainVerificationDto"];
            target: components["schemas"]["DomainTargetDto"];
            /**
             * @description Whether the name's CNAME (or A/AAAA) records point at the target, as of the last check.
             * @example false
             */
            configured: boolean;
        };
        DomainPageDto: {
            /** @description Newest first */
            data: components["schemas"]["DomainDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        TlsAskDto: {
            /**
             * @description The name asked about, as the platform stores it.
             * @example www.example.com
             */
            domain: string;
        };
        CreateUserDto: {
            /**
             * @description The app the person signs up to: one of your apps.
             * @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H
             */
            appId: string;
            /**
             * Format: email
             * @description Trimmed and lowercased before it is checked and stored; unique per app.
             * @example ada@example.com
             */
            email: string;
        };
        UserDto: {
            /**
             * Format: date-time
             * @example 2025-11-22T04:22:00.000Z
             */
            createdAt: string;
            /** @example usr_01JC3ZB4N6P8Q0R2S4T6V8W0XY */
            id: string;
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
            /** @example ada@example.com */
            email: string;
        };
        UserPageDto: {
            /** @description Newest first */
            data: components["schemas"]["UserDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        TokenUsageDto: {
            /** @example 18 */
            promptTokens: number;
            /** @example 64 */
            completionTokens: number;
            /** @example 82 */
            totalTokens: number;
        };
        GenerationDto: {
            /** @example Welcome to Pantry! Save the recipes you love and cook something new tonight. */
            text: string;
            /**
             * @description `stop`: the model ended the text; `length`: cut at `maxTokens`.
             * @example stop
             * @enum {string}
             */
            finishReason: "stop" | "length";
            /** @example gen_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            id: string;
            /**
             * @description The model that generated the text.
             * @example gpt-4o-mini
             */
            model: string;
            usage: components["schemas"]["TokenUsageDto"];
            /**
             * @description ISO 8601, UTC.
             * @example 2026-11-22T10:15:30.000Z
             */
            createdAt: string;
        };
        StreamEndDto: {
            /**
             * @example length
             * @enum {string}
             */
            finishReason: "stop" | "length";
            usage: components["schemas"]["TokenUsageDto"];
        };
        GenerateDto: {
            /**
             * @description The text to continue or answer (1–32 000 characters). Never stored or logged. With
             *     AI_REDACT_PII=true, e-mail addresses and phone numbers are masked before it leaves for a remote provider.
             * @example Write a two-sentence welcome message for the sign-up page of a recipe app.
             */
            prompt: string;
            /**
             * @description Most tokens to generate (1–4096; default 256). `finishReason` is `length` when the text was cut here.
             * @example 64
             */
            maxTokens?: number;
            /**
             * @description Sampling temperature, 0–2: 0 picks the likeliest token every time, higher is more varied. Default: the provider's.
             * @example 0.7
             */
            temperature?: number;
            /**
             * @description `true` answers with `text/event-stream` as the text is generated, instead of one JSON body at the end.
             * @example false
             */
            stream?: boolean;
        };
        UsageDayDto: {
            /**
             * @description UTC day.
             * @example 2026-11-22
             */
            date: string;
            /**
             * @description Generations asked for (streamed or not), failed ones included.
             * @example 12
             */
            requests: number;
            /**
             * @description Of those, the ones that did not complete (upstream error, timeout, client gone).
             * @example 1
             */
            failed: number;
            /** @example 340 */
            promptTokens: number;
            /** @example 1200 */
            completionTokens: number;
            /** @example 1540 */
            totalTokens: number;
        };
        UsageTotalsDto: {
            /** @example 12 */
            requests: number;
            /** @example 1 */
            failed: number;
            /** @example 340 */
            promptTokens: number;
            /** @example 1200 */
            completionTokens: number;
            /** @example 1540 */
            totalTokens: number;
        };
        UsageDto: {
            /** @example 2026-11-01 */
            from: string;
            /** @example 2026-11-30 */
            to: string;
            /** @description One entry per day from `from` to `to`, oldest first, quiet days included with zeros. */
            data: components["schemas"]["UsageDayDto"][];
            /** @description The sums over the whole range. */
            totals: components["schemas"]["UsageTotalsDto"];
        };
        ChatCompletionMessageDto: {
            /**
             * @example assistant
             * @enum {string}
             */
            role: "assistant";
            /** @example Every recipe you love, one tap away. */
            content: string | null;
            /** @description Tool calls, from an upstream given tools */
            tool_calls?: Record<string, never>[];
        };
        ChatCompletionChoiceDto: {
            /**
             * @description `stop`, `length` (cut at max_tokens), or the upstream's own (`tool_calls`, `content_filter`)
             * @example stop
             */
            finish_reason: string;
            /** @example 0 */
            index: number;
            message: components["schemas"]["ChatCompletionMessageDto"];
        };
        CompletionUsageDto: {
            /** @example 24 */
            prompt_tokens: number;
            /** @example 9 */
            completion_tokens: number;
            /** @example 33 */
            total_tokens: number;
        };
        ChatCompletionDto: {
            /**
             * @example chat.completion
             * @enum {string}
             */
            object: "chat.completion";
            choices: components["schemas"]["ChatCompletionChoiceDto"][];
            /**
             * @description This server's id of the call (`chatcmpl-` and the id of its usage row, `gen_…`).
             * @example chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H
             */
            id: string;
            /**
             * @description Unix seconds.
             * @example 1795342530
             */
            created: number;
            /**
             * @description The model asked for (its id in `GET /v1/models`), whichever target answered.
             * @example fast
             */
            model: string;
            usage: components["schemas"]["CompletionUsageDto"];
        };
        StreamOptionsDto: {
            /**
             * @description Adds a last chunk with `usage` and no `choices` before `data: [DONE]`.
             * @example true
             */
            include_usage?: boolean | null;
            /** @description OpenAI's padding of chunks against side channels; accepted and ignored (this server adds none). */
            include_obfuscation?: boolean;
        };
        ChatCompletionRequestDto: {
            /**
             * @description The conversation so far (1–1000 messages): `role` system, developer, user or assistant (tool with an upstream that has tools), `content` a string or an array of content parts (text; image_url, input_audio and file parts with an upstream that takes them). Never stored or logged.
             * @example [
             *       {
             *         "role": "system",
             *         "content": "You write short, friendly product copy."
             *       },
             *       {
             *         "role": "user",
             *         "content": "A one-line tagline for a recipe app."
             *       }
             *     ]
             */
            messages: Record<string, never>[];
            /** @description Where to stop: a string, or up to 4 */
            stop?: string | string[];
            /** @description Tools the model may call (function definitions). Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            tools?: Record<string, never>[];
            /** @description Which tool to call: "none", "auto", "required" or a named one. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            tool_choice?: {
                [key: string]: unknown;
            };
            /** @description Whether the model may call several tools at once. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            parallel_tool_calls?: boolean;
            /** @description Deprecated by OpenAI in favour of tools. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            functions?: Record<string, never>[];
            /** @description Deprecated by OpenAI in favour of tool_choice. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            function_call?: {
                [key: string]: unknown;
            };
            /** @description { "type": "text" | "json_object" | "json_schema", … }. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            response_format?: {
                [key: string]: unknown;
            };
            /** @description -2 to 2. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            frequency_penalty?: number;
            /** @description -2 to 2. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            presence_penalty?: number;
            /** @description Token id → bias. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            logit_bias?: {
                [key: string]: unknown;
            };
            /** @description Log probabilities of the output tokens. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            logprobs?: boolean;
            /** @description 0–20, with logprobs. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            top_logprobs?: number;
            /** @description Reasoning models: low, medium, high… Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            reasoning_effort?: string;
            /** @description low, medium or high. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            verbosity?: string;
            /** @description Output modalities: ["text"], ["text", "audio"]. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            modalities?: Record<string, never>[];
            /** @description Audio output settings. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            audio?: {
                [key: string]: unknown;
            };
            /** @description Predicted output. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            prediction?: {
                [key: string]: unknown;
            };
            /** @description Web search settings. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            web_search_options?: {
                [key: string]: unknown;
            };
            /** @description auto, default, flex, priority… Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            service_tier?: string;
            /** @description A key for the upstream to cache prompts by. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            prompt_cache_key?: string;
            /** @description Prompt caching settings. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            prompt_cache_options?: {
                [key: string]: unknown;
            };
            /** @description "in_memory"; "24h" is refused (400): the platform never asks an upstream to keep a prompt. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            prompt_cache_retention?: string;
            /** @description A stable id of your end user for abuse monitoring. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            safety_identifier?: string;
            /** @description Key-value pairs for stored completions (which this server never asks for). Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            metadata?: {
                [key: string]: unknown;
            };
            /** @description Moderation settings. Passed on as sent to an OpenAI-compatible upstream; a local model answers 400 naming it. */
            moderation?: {
                [key: string]: unknown;
            };
            /**
             * @description A model of `GET /v1/models`.
             * @example fast
             */
            model: string;
            /**
             * @description Most tokens to generate (default and most: the model's `maxTokens`, 4096 unless the operator says otherwise).
             * @example 64
             */
            max_tokens?: number | null;
            /**
             * @description The same as `max_tokens`, under OpenAI's newer name (which wins when both are sent).
             * @example 64
             */
            max_completion_tokens?: number | null;
            /**
             * @description 0–2.
             * @example 0.7
             */
            temperature?: number | null;
            /**
             * @description 0–1.
             * @example 1
             */
            top_p?: number | null;
            /**
             * @description `true` answers `text/event-stream`: `chat.completion.chunk` objects, then `data: [DONE]`.
             * @example false
             */
            stream?: boolean | null;
            /** @description With `stream: true` only. */
            stream_options?: components["schemas"]["StreamOptionsDto"] | null;
            /**
             * @description How many choices (more than 1 with an OpenAI-compatible upstream only).
             * @example 1
             */
            n?: number | null;
            /**
             * @description For repeatable sampling.
             * @example 42
             */
            seed?: number | null;
            /**
             * @description `true` would ask the upstream to keep the conversation: refused (400), prompts and answers are never stored.
             * @example false
             */
            store?: boolean | null;
            /**
             * @description Your end user, for the upstream's abuse monitoring (masked like the messages with AI_REDACT_PII).
             * @example user-1234
             */
            user?: string;
        };
        ModelDto: {
            /**
             * @example model
             * @enum {string}
             */
            object: "model";
            /**
             * @description What clients send as `model`.
             * @example fast
             */
            id: string;
            /**
             * @description Unix seconds: when the operator last changed the offer (AI_PROVIDERS_FILE's time; 0 when unknown).
             * @example 1795300000
             */
            created: number;
            /**
             * @description Who serves it: the operator's `ownedBy`, else its first target's provider.
             * @example openai
             */
            owned_by: string;
        };
        ModelListDto: {
            /**
             * @example list
             * @enum {string}
             */
            object: "list";
            data: components["schemas"]["ModelDto"][];
        };
        EmbeddingsRequestDto: {
            /**
             * @description The text to embed: one string, or an array of 1–2048 (answered in the same order). Never stored or logged.
             * @example A recipe app for busy weeknights
             */
            input: string | string[];
            /**
             * @description `float`: arrays of numbers; `base64`: each vector as little-endian float32 bytes in base64 (what OpenAI's Node and Python clients ask for by default, and decode)
             * @example float
             * @enum {string}
             */
            encoding_format?: "float" | "base64";
            /**
             * @description A model of `GET /v1/models` that makes embeddings.
             * @example embed
             */
            model: string;
            /**
             * @description Fewer dimensions than the model's (cut and scaled back to length 1 by a local model; passed on to an upstream).
             * @example 256
             */
            dimensions?: number;
            /**
             * @description Your end user, for the upstream's abuse monitoring.
             * @example user-1234
             */
            user?: string;
        };
        EmbeddingDto: {
            /**
             * @example embedding
             * @enum {string}
             */
            object: "embedding";
            /**
             * @description The vector (a base64 string with `encoding_format: "base64"`)
             * @example [
             *       0.0123,
             *       -0.0456,
             *       0.0789
             *     ]
             */
            embedding: number[] | string;
            /**
             * @description The input's position.
             * @example 0
             */
            index: number;
        };
        EmbeddingUsageDto: {
            /** @example 8 */
            prompt_tokens: number;
            /** @example 8 */
            total_tokens: number;
        };
        EmbeddingsDto: {
            /**
             * @example list
             * @enum {string}
             */
            object: "list";
            data: components["schemas"]["EmbeddingDto"][];
            /**
             * @description The model asked for.
             * @example embed
             */
            model: string;
            usage: components["schemas"]["EmbeddingUsageDto"];
        };
        CreateWebhookEndpointDto: {
            /**
             * @description Event kinds to receive: `*`, a whole domain (`user.*`) or exact kinds. Default `["*"]`.
             * @default [
             *       "*"
             *     ]
             * @example [
             *       "user.*",
             *       "app.created"
             *     ]
             */
            events: ("*" | "app.*" | "deployment.*" | "user.*" | "billing.*" | "webhook_endpoint.*" | "domain.*" | "split.*" | "webhook.*" | "app.created" | "app.updated" | "app.deleted" | "app.published" | "app.unpublished" | "deployment.succeeded" | "user.created" | "user.deleted" | "billing.usage.threshold_reached" | "billing.statement.closed" | "billing.plan.changed" | "webhook_endpoint.disabled" | "domain.verified" | "domain.failed" | "domain.deleted" | "domain.lapsed" | "split.started" | "split.ended" | "webhook.test")[];
            /**
             * @description The receiver: `https://`, reachable on a public address (checked now and at every delivery).
             * @example https://example.com/webhooks
             */
            url: string;
            /** @example Production user sync */
            description?: string | null;
        };
        CreatedWebhookEndpointDto: {
            /**
             * @example [
             *       "user.*"
             *     ]
             */
            events: string[];
            /**
             * @description The service disables an endpoint that answers 410 Gone, or whose deliveries have kept failing for 5 days (WEBHOOK_DISABLE_AFTER)
             * @example Active
             * @enum {string}
             */
            status: "Active" | "Disabled";
            /**
             * @description Why the service disabled it, e.g. `no delivery succeeded for 5 days while deliveries kept failing` or `the receiver answered 410 Gone`; null when Active or disabled by hand
             * @example null
             */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            updatedAt: string;
            /**
             * @description The signing secret. Shown only here (and by rotate-secret): store it.
             * @example whsec_3q2+7w1XkQm9Zr0aB5cD8eF1gH4iJ7kL0mN3oP6qR9s=
             */
            secret: string;
            /** @example we_01JC3ZD2F4G6H8J0K2M4N6P8QR */
            id: string;
            /** @example https://example.com/webhooks */
            url: string;
            /** @example Production user sync */
            description: string | null;
        };
        WebhookEndpointDto: {
            /**
             * @example [
             *       "user.*"
             *     ]
             */
            events: string[];
            /**
             * @description The service disables an endpoint that answers 410 Gone, or whose deliveries have kept failing for 5 days (WEBHOOK_DISABLE_AFTER)
             * @example Active
             * @enum {string}
             */
            status: "Active" | "Disabled";
            /**
             * @description Why the service disabled it, e.g. `no delivery succeeded for 5 days while deliveries kept failing` or `the receiver answered 410 Gone`; null when Active or disabled by hand
             * @example null
             */
            disabledReason: string | null;
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            updatedAt: string;
            /** @example we_01JC3ZD2F4G6H8J0K2M4N6P8QR */
            id: string;
            /** @example https://example.com/webhooks */
            url: string;
            /** @example Production user sync */
            description: string | null;
        };
        WebhookEndpointPageDto: {
            /** @description Newest first */
            data: components["schemas"]["WebhookEndpointDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        UpdateWebhookEndpointDto: {
            /**
             * @example [
             *       "*"
             *     ]
             */
            events?: ("*" | "app.*" | "deployment.*" | "user.*" | "billing.*" | "webhook_endpoint.*" | "domain.*" | "split.*" | "webhook.*" | "app.created" | "app.updated" | "app.deleted" | "app.published" | "app.unpublished" | "deployment.succeeded" | "user.created" | "user.deleted" | "billing.usage.threshold_reached" | "billing.statement.closed" | "billing.plan.changed" | "webhook_endpoint.disabled" | "domain.verified" | "domain.failed" | "domain.deleted" | "domain.lapsed" | "split.started" | "split.ended" | "webhook.test")[];
            /**
             * @example Disabled
             * @enum {string}
             */
            status?: "Active" | "Disabled";
            /** @example https://example.com/webhooks/v2 */
            url?: string;
            /** @example Staging */
            description?: string | null;
        };
        WebhookSecretDto: {
            /**
             * Format: date-time
             * @description Until when the previous secret also signs
             * @example 2025-11-23T04:20:00.000Z
             */
            previousSecretExpiresAt: string;
            /**
             * @description The new signing secret, shown once. The previous one keeps signing beside it for 24 hours.
             * @example whsec_9Zr0aB5cD8eF1gH4iJ7kL0mN3oP6qR9s3q2+7w1XkQm=
             */
            secret: string;
        };
        WebhookAttemptDto: {
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:01.000Z
             */
            attemptedAt: string;
            /**
             * Format: date-time
             * @description When the next try was due, as scheduled after this one (the retry schedule, or a longer `Retry-After`); null when none was
             * @example 2025-11-22T04:25:01.000Z
             */
            nextAttemptAt: string | null;
            /**
             * @description 1 for the first try.
             * @example 1
             */
            attempt: number;
            /**
             * @description The receiver's HTTP status; null when no answer came (timeout, refused, blocked).
             * @example 503
             */
            statusCode: number | null;
            /** @example 42 */
            durationMs: number;
            /**
             * @description The first 1 KiB of the answer (cut before a character the limit would split; NUL characters dropped).
             * @example Service Unavailable
             */
            responseBody: string | null;
            /** @description Why the try failed without an answer: `timeout`, `blocked address`, a DNS or connection error. */
            error: string | null;
        };
        WebhookDeliveryDto: {
            /**
             * @example pending
             * @enum {string}
             */
            status: "pending" | "succeeded" | "failed";
            /**
             * Format: date-time
             * @example 2025-11-22T04:20:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description Pending: when its next try is due. Null once it has settled
             * @example 2025-11-22T05:20:01.000Z
             */
            nextAttemptAt: string | null;
            /** @description The body each try sends; null once the event has left the 30-day log */
            payload: components["schemas"]["EventDto"] | null;
            /** @description Oldest first */
            attempts: components["schemas"]["WebhookAttemptDto"][];
            /** @example del_01JC3ZF0A2B4C6D8E0F2G4H6J8 */
            id: string;
            /** @example evt_01JC3ZE8S0T2V4W6X8Y0Z2A4B6 */
            eventId: string;
            /** @example user.created */
            event: string;
            /** @example we_01JC3ZD2F4G6H8J0K2M4N6P8QR */
            endpointId: string;
        };
        RecoverDeliveriesDto: {
            /**
             * @description Failed deliveries of the events raised at or after this time are attempted again. Within the last 14 days, not in the future.
             * @example 2026-11-20T08:00:00.000Z
             */
            since: string;
        };
        RecoveredDto: {
            /**
             * @description How many failed deliveries were queued again (oldest first).
             * @example 12
             */
            queued: number;
        };
        WebhookDeliveryPageDto: {
            /** @description Newest first */
            data: components["schemas"]["WebhookDeliveryDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        AggregateResultDto: {
            /**
             * @description One entry per metric asked for, each `{ value }`; percents have one decimal, visitDuration is in seconds
             * @example {
             *       "visitors": {
             *         "value": 12
             *       },
             *       "pageviews": {
             *         "value": 31
             *       },
             *       "bounceRate": {
             *         "value": 41.7
             *       },
             *       "visitDuration": {
             *         "value": 73
             *       }
             *     }
             */
            results: {
                [key: string]: {
                    value?: number;
                };
            };
        };
        TimeseriesResultDto: {
            /**
             * @description Every interval of the range in order, zeros included: `date` is YYYY-MM-DD (day), YYYY-MM-01 (month) or YYYY-MM-DDTHH:00:00Z (hour), then one field per metric
             * @example [
             *       {
             *         "date": "2026-11-21",
             *         "visitors": 3,
             *         "pageviews": 7
             *       },
             *       {
             *         "date": "2026-11-22",
             *         "visitors": 0,
             *         "pageviews": 0
             *       }
             *     ]
             */
            results: {
                [key: string]: unknown;
            }[];
        };
        BreakdownPageDto: {
            /**
             * @description Rows keyed by the property (e.g. `page`), most visitors first, then one field per metric
             * @example [
             *       {
             *         "page": "/",
             *         "visitors": 12,
             *         "pageviews": 31,
             *         "signups": 2,
             *         "conversionRate": 16.7
             *       }
             *     ]
             */
            data: {
                [key: string]: unknown;
            }[];
            /**
             * @description Pass as `cursor` for the next page; null on the last
             * @example null
             */
            nextCursor: string | null;
        };
        RealtimeDto: {
            /**
             * @description Distinct visitors with a pageview in the last 5 minutes.
             * @example 4
             */
            visitors: number;
        };
        CreateGoalDto: {
            /**
             * @description A custom event's name (1–40 characters): each such event is a completion. Not `pageview` (use `page`), nor `Sign-up` (built in).
             * @example Download
             */
            event?: string;
            /**
             * @description A page's path, starting with `/`, up to 300 characters; `*` matches any characters (`/blog/*`). Each pageview of a matching page is a completion.
             * @example /pricing
             */
            page?: string;
        };
        GoalDto: {
            /**
             * Format: date-time
             * @example 2026-11-25T10:31:00.000Z
             */
            createdAt: string;
            /** @example goal_01JC3ZK4M6N8P0Q2R4S6T8V0WX */
            id: string;
            /**
             * @description The event's name, or `Visit <page>` for a page goal: the `goal` of `breakdown?property=goal`.
             * @example Download
             */
            name: string;
            /**
             * @description The custom event counted (absent on a page goal).
             * @example Download
             */
            event?: string;
            /**
             * @description The page pattern counted (absent on an event goal).
             * @example /blog/*
             */
            page?: string;
        };
        GoalPageDto: {
            /** @description Newest first */
            data: components["schemas"]["GoalDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        ReportSwitchesDto: {
            /**
             * @description The weekly report: sent Mondays, of the previous ISO week (Monday to Sunday, UTC).
             * @example true
             */
            weekly: boolean;
            /**
             * @description The monthly report: sent on the 1st, of the previous calendar month (UTC).
             * @example false
             */
            monthly: boolean;
        };
        UpdateReportSwitchesDto: {
            /** @example true */
            weekly?: boolean;
            /** @example false */
            monthly?: boolean;
        };
        BillingDto: {
            usage: components["schemas"]["MeterUsageDto"][];
            plan: components["schemas"]["PlanRefDto"];
            period: components["schemas"]["PeriodDto"];
        };
        StatementLineDto: {
            /** @example 2000000 */
            included: number | null;
            /**
             * @description A meter, or `plan` for the plan's monthly price.
             * @example ai.tokens
             */
            meter: string;
            /** @example 2300000 */
            quantity: number;
            /** @example 300000 */
            overage: number;
            /**
             * @description Cents per block of `unitSize` units of overage.
             * @example 2
             */
            unitPriceCents: number;
            /** @example 1000 */
            unitSize: number;
            /** @example 600 */
            amountCents: number;
            /**
             * @description `functions.duration_ms` only: the memory limit of each function instance (MiB) the duration ran with.
             * @example 128
             */
            memoryMb?: number;
        };
        StatementDto: {
            lines: components["schemas"]["StatementLineDto"][];
            /**
             * @example usd
             * @enum {string}
             */
            currency: "usd";
            /**
             * @example closed
             * @enum {string}
             */
            status: "open" | "closed";
            /** @example st_3kTMd7PlUb2cQx9Vz1wYhR8e */
            id: string;
            period: components["schemas"]["PeriodDto"];
            plan: components["schemas"]["PlanRefDto"];
            /** @example 2600 */
            totalCents: number;
        };
        StatementPageDto: {
            /** @description Newest first */
            data: components["schemas"]["StatementDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        CreateAnalyticsShareDto: {
            /**
             * @description What the link is for (shown in the list, not on the page): 1–100 characters.
             * @example Investors
             */
            name: string;
            /**
             * @description Optional: the page asks for it first (8–200 characters). Hashed; guesses are locked out as sign-in's are.
             * @example correct horse battery
             */
            password?: string;
        };
        AnalyticsShareDto: {
            /**
             * Format: date-time
             * @example 2026-11-29T10:31:00.000Z
             */
            createdAt: string;
            /** @example shr_01JC3ZK4M6N8P0Q2R4S6T8V0WX */
            id: string;
            /** @example Investors */
            name: string;
            /**
             * @description The read-only dashboard's address (anyone with it can see the app's analytics, after the password if one is set).
             * @example https://platform.example.com/share/3q2-7wVkT0bqQ1rCk5nKx8mD2yP4sLhJ9fA6uE1oZcg
             */
            url: string;
            /**
             * @description Whether a password guards it.
             * @example false
             */
            protected: boolean;
        };
        AnalyticsSharePageDto: {
            /** @description Newest first */
            data: components["schemas"]["AnalyticsShareDto"][];
            /**
             * @description Pass as `cursor` to get the next page; null on the last page
             * @example WyIyMDI1LTExLTIyVDA0OjIwOjAwLjAwMFoiLCJhcHBfMDFKQzNaOFc1UTRNMEI3VDJLOVgxRDZGM0giXQ
             */
            nextCursor: string | null;
        };
        SetEnvVarDto: {
            /**
             * @description The value: at most 64 KiB (UTF-8). A secret's is never shown again.
             * @example sk_live_51H…
             */
            value: string;
            /**
             * @description A secret: sealed at rest, its value never shown by any route, page, log or event. Default false.
             * @example true
             */
            secret?: boolean;
        };
        EnvVarDto: {
            /**
             * @description A plain variable's value; absent for a secret.
             * @example https://api.example.com
             */
            value?: string;
            /** @example STRIPE_KEY */
            name: string;
            /** @example false */
            secret: boolean;
            /** @example 2026-11-29T10:00:00.000Z */
            updatedAt: string;
        };
        EnvVarListDto: {
            data: components["schemas"]["EnvVarDto"][];
        };
        CollectDto: {
            /** @example app_01JC3Z8W5Q4M0B7T2K9X1D6F3H */
            appId: string;
            /**
             * @description `pageview`, or a custom event name of 1–40 characters (counted by the `events` metric and `breakdown?property=event`).
             * @example pageview
             */
            name: string;
            /**
             * @description The page's full URL. Only its pathname and `utm_source`/`utm_medium`/`utm_campaign`/`ref` are kept.
             * @example https://recipes.example.com/pricing?utm_source=newsletter
             */
            url: string;
            /**
             * @description `document.referrer`. Only its host is kept, and only when it is another site.
             * @example https://news.example.org/item?id=1
             */
            referrer?: string | null;
            /**
             * @description The window's width in CSS pixels: tells phones and tablets from desktops when the User-Agent does not.
             * @example 1280
             */
            screenWidth?: number;
            /**
             * @description Up to 10 string pairs describing a custom event (keys up to 40, values up to 200 characters): stored with the event, a value that looks like an e-mail address as `(redacted)`; ignored on pageviews.
             * @example {
             *       "plan": "pro"
             *     }
             */
            props?: {
                [key: string]: string;
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    EventLogController_list: {
        parameters: {
            query?: {
                /** @description Only events of this kind. */
                kind?: "app.created" | "app.updated" | "app.deleted" | "app.published" | "app.unpublished" | "deployment.succeeded" | "user.created" | "user.deleted" | "billing.usage.threshold_reached" | "billing.statement.closed" | "billing.plan.changed" | "webhook_endpoint.disabled" | "domain.verified" | "domain.failed" | "domain.deleted" | "domain.lapsed" | "split.started" | "split.ended" | "webhook.test";
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    EventLogController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AuditLogController_list: {
        parameters: {
            query?: {
                /** @description Only entries of this action. */
                action?: "sign_in.succeeded" | "sign_in.failed" | "sign_in.locked" | "sign_in.unlocked" | "mfa.enrolled" | "mfa.removed" | "mfa.recovery_codes_regenerated" | "mfa.policy_changed" | "sso.configured" | "sso.removed" | "sso.domain_verified" | "sso.domain_lapsed" | "member.invited" | "member.invitation_revoked" | "member.joined" | "member.role_changed" | "member.removed" | "api_key.created" | "api_key.revoked" | "api_key.updated" | "service_account.created" | "service_account.revoked" | "service_account.updated" | "webhook_endpoint.created" | "webhook_endpoint.updated" | "webhook_endpoint.deleted" | "webhook_endpoint.secret_rotated" | "plan.changed" | "app.deleted" | "domain.added" | "domain.verified" | "domain.deleted" | "domain.lapsed" | "users.exported" | "user.erased" | "env_var.set" | "env_var.deleted" | "split.started" | "split.ended" | "analytics_share.created" | "analytics_share.deleted";
                /** @description Only entries of this actor (a member's, API key's or token's id, or `operator`). */
                actor?: string;
                /** @description Entries at or after this time (ISO 8601). */
                from?: string;
                /** @description Entries before this time (ISO 8601). */
                to?: string;
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEntryPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MetricsController_scrape: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
        };
    };
    HealthController_live: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
        };
    };
    HealthController_ready: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": unknown;
                };
            };
            /** @description Not configured on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 503,
                     *       "message": "Service unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ApiKeysController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyListDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ApiKeysController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ApiKeysController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ApiKeysController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiKeyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ServiceAccountsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountListDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ServiceAccountsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateServiceAccountDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedServiceAccountDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ServiceAccountsController_revoke: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ServiceAccountsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateServiceAccountDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ServiceAccountDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    OAuthController_token: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenRequestDto"];
                "application/json": components["schemas"]["TokenRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenResponseDto"];
                };
            };
            /** @description `invalid_request`, `invalid_scope`, `unsupported_grant_type` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorDto"];
                };
            };
            /** @description `invalid_client` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthErrorDto"];
                };
            };
        };
    };
    OAuthController_introspect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenParamDto"];
                "application/json": components["schemas"]["TokenParamDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IntrospectionDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    OAuthController_revoke: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": components["schemas"]["TokenParamDto"];
                "application/json": components["schemas"]["TokenParamDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AdminController_createAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAccountDto"];
            };
        };
        responses: {
            /** @description The account and its first API key (all scopes), shown once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedAccountDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AdminController_getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAccountDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AdminController_reissueInvite: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new invite link, shown once */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PortalInviteDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AdminController_changePlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangePlanDto"];
            };
        };
        responses: {
            /** @description The account on its new plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminAccountDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AdminController_removeSso: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                accountId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Turned off */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_not_configured`: the account has no single sign-on (or does not exist) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "Single sign-on is not set up for this account",
                     *       "reason": "sso_not_configured"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AdminController_sendReports: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SentReportsDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MembersController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MembersController_pendingInvitations: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PendingInvitationPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MembersController_invite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvitationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `owner_member_required`: a credential tried to invite an owner
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `invitation_mail_limit`: 3 invitation e-mails to this address in the last 15 minutes (Retry-After)
             *
             *     Rate limit reached; see Retry-After
             */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MembersController_revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `invitation_not_found`: no pending invitation with this id in the account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "No pending invitation inv_01JC3Z8W5Q4M0B7T2K9X1D6F3H: it was used, has expired, was revoked, or does not exist",
                     *       "reason": "invitation_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MembersController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `owner_member_required`: a credential tried to remove an owner
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    MembersController_changeRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeRoleDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `owner_member_required`: a credential tried to make or demote an owner
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SsoController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoSettingsDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_not_configured`: single sign-on is not set up */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "Single sign-on is not set up for this account",
                     *       "reason": "sso_not_configured"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SsoController_put: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutSsoDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoSettingsDto"];
                };
            };
            /** @description Invalid fields; `sso_issuer_insecure`: not https; `sso_issuer_private`: an issuer at a private or loopback address; `sso_domain_public`; `sso_client_secret_required` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "issuer must be an https URL without credentials (plain http only for a provider on this machine, when the operator sets SSO_ALLOW_INSECURE_LOOPBACK=true)",
                     *       "reason": "sso_issuer_insecure"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `owner_member_required`: no API key or access token changes single sign-on, only an owner signed in to the portal (`sso_owners_only`: a portal session of another role)
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_domain_taken`: another account signs in with SSO for that domain */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "The domain acme.com is a proven domain of another account's single sign-on already",
                     *       "reason": "sso_domain_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_discovery_failed`: the issuer's OpenID configuration could not be read */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 422,
                     *       "message": "The issuer's OpenID configuration could not be read: check that <issuer>/.well-known/openid-configuration answers over https and names this issuer",
                     *       "reason": "sso_discovery_failed"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SsoController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Turned off */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `owner_member_required`: no API key or access token changes single sign-on, only an owner signed in to the portal (`sso_owners_only`: a portal session of another role)
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_not_configured`: single sign-on is not set up */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "Single sign-on is not set up for this account",
                     *       "reason": "sso_not_configured"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SsoController_verifyDomain: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                domain: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings after the check */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SsoSettingsDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_domain_not_listed`: not one of the domains of the settings (`sso_not_configured`: no settings) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "acme.com is not one of the domains of this account's single sign-on",
                     *       "reason": "sso_domain_not_listed"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description `sso_domain_taken`: another account proved the domain first; or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "The domain acme.com was proven by another account first; its single sign-on routes that domain's sign-ins",
                     *       "reason": "sso_domain_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AppsController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AppsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAppDto"];
            };
        };
        responses: {
            /** @description The new app */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AppsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AppsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AppsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAppDto"];
            };
        };
        responses: {
            /** @description The app after the update */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    LandingPagesController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LandingPageResponseDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    LandingPagesController_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LandingPageDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LandingPageResponseDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    LandingPagesController_generate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["GenerateLandingPageDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LandingPageResponseDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A hard quota of the plan is used up */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 402,
                     *       "message": "The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 502,
                     *       "message": "The AI upstream failed"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not configured on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 503,
                     *       "message": "Service unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream timed out */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 504,
                     *       "message": "The AI upstream timed out"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    FilesController_upload: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description SHA-256 of the body, 64 lowercase hex characters */
                sha256: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description The account had it already */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileDto"];
                };
            };
            /** @description Stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FileDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A hard quota of the plan is used up */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 402,
                     *       "message": "The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DeploymentsController_deploy: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeployDto"];
            };
        };
        responses: {
            /** @description Deployed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeployResultDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A hard quota of the plan is used up */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 402,
                     *       "message": "The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DeploymentsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deploymentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DeploymentsController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeploymentPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    FunctionLogsController_list: {
        parameters: {
            query?: {
                /** @description Only lines after this time. */
                since?: string;
                /** @description The newest lines, 1–1000. */
                limit?: number;
                /** @description `true`: a server-sent event stream of the new lines. */
                follow?: "true" | "false";
            };
            header?: never;
            path: {
                deploymentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The lines (JSON), or with `follow=true` a server-sent event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LogLineListDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    PublishingController_publish: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["PublishDto"];
            };
        };
        responses: {
            /** @description The app, published */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    PublishingController_unpublish: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The app, unpublished */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AppDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SplitController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SplitResultsDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app does not exist, or no test runs (`split_not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App app_01JC3Z8W5Q4M0B7T2K9X1D6F3H has no split test running",
                     *       "reason": "split_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SplitController_start: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartSplitDto"];
            };
        };
        responses: {
            /** @description The test, running */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SplitDto"];
                };
            };
            /** @description A bad variant list: weights not summing to 100, a deployment repeated, or not a production deployment of the app (the message names the field) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "variants weights must sum to 100 (they sum to 90)",
                     *       "reason": "invalid_parameter"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app is not published (`app_not_published`) */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "App app_01JC3Z8W5Q4M0B7T2K9X1D6F3H is not published",
                     *       "reason": "app_not_published"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    SplitController_end: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app does not exist, or no test runs (`split_not_found`) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App app_01JC3Z8W5Q4M0B7T2K9X1D6F3H has no split test running",
                     *       "reason": "split_not_found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    CatalogController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CatalogPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    CatalogController_page: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DomainsController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DomainsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDomainDto"];
            };
        };
        responses: {
            /** @description The domain, pending, with the records to create */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainDto"];
                };
            };
            /** @description Not a DNS name (`hostname_invalid`), an IP address (`hostname_ip`), localhost (`hostname_localhost`), or one of the platform’s own names (`hostname_reserved`) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "hostname \"192.0.2.1\" is an IP address; give a DNS name such as www.example.com",
                     *       "reason": "hostname_ip"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app has 10 domains (`domain_limit_reached`), the account claimed the name already (`domain_exists`), or another account verified it (`domain_taken`); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "www.example.com was verified by another account first; it serves their app until they delete it",
                     *       "reason": "domain_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DomainsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DomainsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    DomainsController_verify: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The domain after the check */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Another account verified the name first (`domain_taken`); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "www.example.com was verified by another account first; it serves their app until they delete it",
                     *       "reason": "domain_taken"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    TlsAskController_ask: {
        parameters: {
            query: {
                /** @description The name of the TLS handshake (SNI) */
                domain: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proxy may get (and renew) a certificate for the name */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TlsAskDto"];
                };
            };
            /** @description Not a name this server serves: no certificate */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "This server serves no site under that name",
                     *       "reason": "tls_name_unknown"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    UsersController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
                /** @description Only this app's users. Without it: the users of every app of the account. */
                appId?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    UsersController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `missing_scope`, `role_forbids`; `credential_bound_to_app`: a function's PLATFORM_TOKEN named another app than its own
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    UsersController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    UsersController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Erased */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    "SitesController_serve[0]": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description After /sites/: `<deploymentId>/` or `<appId>/<env>/`; after /p/: `<slug>/`. Then nothing (the page), `thanks` or `signup`. */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <!doctype html>
                     *     <html lang="en">…<h1>Family recipes, finally in one place</h1>…</html>
                     */
                    "text/html": string;
                };
            };
            /** @description The same path with a trailing slash, or the new address of a renamed slug */
            301: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A deployment with files of its own: the same path on the site's own origin (`https://<label>.<SITES_DOMAIN>/…`) */
            308: {
                headers: {
                    /** @example https://dep-01jc3z9a7b2c4d6e8f0g1h2j3k.example-apps.com/assets/app.js */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app was unpublished (an HTML page for browsers) */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    "SitesController_signup[0]": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description After /sites/: `<deploymentId>/` or `<appId>/<env>/`; after /p/: `<slug>/`. Then nothing (the page), `thanks` or `signup`. */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed up (or dropped as spam, or already signed up: the answer does not tell) */
            303: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A deployment with files of its own: the same path on the site's own origin (`https://<label>.<SITES_DOMAIN>/…`) */
            308: {
                headers: {
                    /** @example https://dep-01jc3z9a7b2c4d6e8f0g1h2j3k.example-apps.com/assets/app.js */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The page again, with the message next to the e-mail field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many sign-ups from this visitor; try again in a minute */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    "SitesController_serve[1]": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description After /sites/: `<deploymentId>/` or `<appId>/<env>/`; after /p/: `<slug>/`. Then nothing (the page), `thanks` or `signup`. */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example <!doctype html>
                     *     <html lang="en">…<h1>Family recipes, finally in one place</h1>…</html>
                     */
                    "text/html": string;
                };
            };
            /** @description The same path with a trailing slash, or the new address of a renamed slug */
            301: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not modified (If-None-Match matched the ETag) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A deployment with files of its own: the same path on the site's own origin (`https://<label>.<SITES_DOMAIN>/…`) */
            308: {
                headers: {
                    /** @example https://dep-01jc3z9a7b2c4d6e8f0g1h2j3k.example-apps.com/assets/app.js */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app was unpublished (an HTML page for browsers) */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    "SitesController_signup[1]": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description After /sites/: `<deploymentId>/` or `<appId>/<env>/`; after /p/: `<slug>/`. Then nothing (the page), `thanks` or `signup`. */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed up (or dropped as spam, or already signed up: the answer does not tell) */
            303: {
                headers: {
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description A deployment with files of its own: the same path on the site's own origin (`https://<label>.<SITES_DOMAIN>/…`) */
            308: {
                headers: {
                    /** @example https://dep-01jc3z9a7b2c4d6e8f0g1h2j3k.example-apps.com/assets/app.js */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The page again, with the message next to the e-mail field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many sign-ups from this visitor; try again in a minute */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    AiController_generate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GenerateDto"];
            };
        };
        responses: {
            /** @description The generated text (JSON), or with `stream: true` a server-sent event stream */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerationDto"];
                    /**
                     * @example data: {"text":"Once upon a time"}
                     *
                     *     data: {"text":", there was a little app"}
                     *
                     *     data: {"finishReason":"length","usage":{"promptTokens":5,"completionTokens":8,"totalTokens":13}}
                     *
                     *     data: [DONE]
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A hard quota of the plan is used up */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 402,
                     *       "message": "The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 502,
                     *       "message": "The AI upstream failed"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not configured on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 503,
                     *       "message": "Service unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream timed out */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 504,
                     *       "message": "The AI upstream timed out"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AiController_getUsage: {
        parameters: {
            query?: {
                /** @description First UTC day, included (YYYY-MM-DD). Default: 29 days before `to`. */
                from?: string;
                /** @description Last UTC day, included (YYYY-MM-DD). Default: today. At most 366 days after `from`. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    GatewayController_createChatCompletion: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatCompletionRequestDto"];
            };
        };
        responses: {
            /** @description The completion (JSON), or with `stream: true` a server-sent event stream of chunks */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatCompletionDto"];
                    /**
                     * @example data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}
                     *
                     *     data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[{"index":0,"delta":{"content":"Every recipe"},"finish_reason":null}]}
                     *
                     *     data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}
                     *
                     *     data: {"id":"chatcmpl-01JC3Z8W5Q4M0B7T2K9X1D6F3H","object":"chat.completion.chunk","created":1795342530,"model":"fast","choices":[],"usage":{"prompt_tokens":24,"completion_tokens":3,"total_tokens":27}}
                     *
                     *     data: [DONE]
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A hard quota of the plan is used up */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 402,
                     *       "message": "The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 502,
                     *       "message": "The AI upstream failed"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not configured on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 503,
                     *       "message": "Service unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream timed out */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 504,
                     *       "message": "The AI upstream timed out"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    GatewayController_listModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelListDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    GatewayController_createEmbeddings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmbeddingsRequestDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmbeddingsDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A hard quota of the plan is used up */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 402,
                     *       "message": "The ai.tokens quota of your plan (100000 a month) is used up; it renews on 2026-12-01."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 502,
                     *       "message": "The AI upstream failed"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not configured on this server */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 503,
                     *       "message": "Service unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The AI upstream timed out */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 504,
                     *       "message": "The AI upstream timed out"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedWebhookEndpointDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_update: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookEndpointDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_rotate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict: an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_test: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The queued delivery */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_recover: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecoverDeliveriesDto"];
            };
        };
        responses: {
            /** @description How many deliveries were queued again */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecoveredDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookEndpointsController_deliveries: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    WebhookDeliveriesController_retry: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Conflict (duplicate, or an Idempotency-Key reused with another body or still in flight); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "Idempotency-Key was already used with another request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsController_aggregate: {
        parameters: {
            query?: {
                /** @description `day` (today), `7d` and `30d` (ending today), `month` (this month so far), `12mo` (this month and the 11 before), or `custom` with `from` and `to`. Default `30d`. UTC. */
                period?: string;
                /** @description First day of a `custom` period, inclusive (YYYY-MM-DD, UTC). */
                from?: string;
                /** @description Last day of a `custom` period, inclusive; at most 2 years after `from`. */
                to?: string;
                /** @description Comma-separated: `visitors`, `visits`, `pageviews`, `bounceRate`, `visitDuration`, `signups`, `conversionRate`, `events` (custom events). */
                metrics?: string;
                /** @description `property==value` clauses joined by `;`, all of which must hold. Properties: `page`, `referrer`, `source`, `utmCampaign`, `browser`, `os`, `device`, `deployment`, `country`, `event`, `props.<key>`. */
                filters?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AggregateResultDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsController_timeseries: {
        parameters: {
            query?: {
                /** @description `day` (today), `7d` and `30d` (ending today), `month` (this month so far), `12mo` (this month and the 11 before), or `custom` with `from` and `to`. Default `30d`. UTC. */
                period?: string;
                /** @description First day of a `custom` period, inclusive (YYYY-MM-DD, UTC). */
                from?: string;
                /** @description Last day of a `custom` period, inclusive; at most 2 years after `from`. */
                to?: string;
                /** @description Comma-separated: `visitors`, `visits`, `pageviews`, `bounceRate`, `visitDuration`, `signups`, `conversionRate`, `events` (custom events). */
                metrics?: string;
                /** @description `property==value` clauses joined by `;`, all of which must hold. Properties: `page`, `referrer`, `source`, `utmCampaign`, `browser`, `os`, `device`, `deployment`, `country`, `event`, `props.<key>`. */
                filters?: string;
                /** @description `hour` (ranges up to 31 days), `day` or `month`. Default: `hour` for one day, `month` beyond 92 days, else `day`. */
                interval?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TimeseriesResultDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsController_breakdown: {
        parameters: {
            query: {
                /** @description What to group by: `page`, `referrer`, `source` (utm_source, else the referrer host), `utmCampaign`, `browser`, `os`, `device` (`desktop`, `mobile`, `tablet`), `deployment`, `country` (ISO 3166-1 alpha-2, `(unknown)`), `event` (a custom event's name), `props.<key>` (a custom event's property) or `goal` (per goal: visitors, events, conversionRate). For `event` and `props.<key>` the default metrics are `visitors,events`. */
                property: string;
                /**
                 * @description A goal's name (`Sign-up`, or one of the app's goals) as the funnel's step instead of sign-up: each row's
                 *     `signups` counts the goal's unique converting visitors (once a day) and `conversionRate` is those ÷ the row's
                 *     visitors — e.g. `property=deployment&metrics=visitors,signups,conversionRate&goal=Download`. Unknown goal → 404.
                 */
                goal?: string;
                /** @description `day` (today), `7d` and `30d` (ending today), `month` (this month so far), `12mo` (this month and the 11 before), or `custom` with `from` and `to`. Default `30d`. UTC. */
                period?: string;
                /** @description First day of a `custom` period, inclusive (YYYY-MM-DD, UTC). */
                from?: string;
                /** @description Last day of a `custom` period, inclusive; at most 2 years after `from`. */
                to?: string;
                /** @description Comma-separated: `visitors`, `visits`, `pageviews`, `bounceRate`, `visitDuration`, `signups`, `conversionRate`, `events` (custom events). */
                metrics?: string;
                /** @description `property==value` clauses joined by `;`, all of which must hold. Properties: `page`, `referrer`, `source`, `utmCampaign`, `browser`, `os`, `device`, `deployment`, `country`, `event`, `props.<key>`. */
                filters?: string;
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BreakdownPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsController_realtime: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RealtimeDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsController_export: {
        parameters: {
            query?: {
                /** @description `day` (today), `7d` and `30d` (ending today), `month` (this month so far), `12mo` (this month and the 11 before), or `custom` with `from` and `to`. Default `30d`. UTC. */
                period?: string;
                /** @description First day of a `custom` period, inclusive (YYYY-MM-DD, UTC). */
                from?: string;
                /** @description Last day of a `custom` period, inclusive; at most 2 years after `from`. */
                to?: string;
                /** @description `property==value` clauses joined by `;`, all of which must hold. Properties: `page`, `referrer`, `source`, `utmCampaign`, `browser`, `os`, `device`, `deployment`, `country`, `event`, `props.<key>`. */
                filters?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive, `Content-Disposition: attachment; filename="<slug>-analytics-<from>-to-<to>.zip"` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/zip": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    GoalsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalPageDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    GoalsController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateGoalDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GoalDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app has a goal of that name (`goal_exists`, Sign-up included) or 50 goals (`goal_limit_reached`); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "The app has a goal \"Download\" already",
                     *       "reason": "goal_exists"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    GoalsController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    CollectController_collect: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, sent as application/json or as text/plain (what `navigator.sendBeacon` sends) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CollectDto"];
                "text/plain": components["schemas"]["CollectDto"];
            };
        };
        responses: {
            /** @description Taken (counted, or dropped without telling) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    CollectController_preflight: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Allowed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    CollectController_script: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
        };
    };
    ReportsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportSwitchesDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `report_member_required`: the caller is no member (a service account, the operator’s key)
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    ReportsController_put: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateReportSwitchesDto"];
            };
        };
        responses: {
            /** @description The switches now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReportSwitchesDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /**
             * @description `report_member_required`: the caller is no member (a service account, the operator’s key)
             *
             *     The credential lacks the scope this route needs
             */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    UnsubscribeController_page: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page with the button */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A token this server did not sign, or the report is off already (a page) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
        };
    };
    UnsubscribeController_unsubscribe: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unsubscribed (a page) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A token this server did not sign, or the report is off already (a page) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            /** @description A body that is not a form */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    BillingController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    BillingController_list: {
        parameters: {
            query?: {
                /** @description Items per page, 1–100. */
                limit?: number;
                /** @description The `nextCursor` of the previous page, unchanged. Omit for the first page. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StatementPageDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsSharesController_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalyticsSharePageDto"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsSharesController_create: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: the first successful response (status and body) is stored for 24 h and replayed, with `Idempotent-Replayed: true`, for the same key and request. The same key with another body, or while the first request is still running, answers 409. A failed request does not keep the key. Where the answer held a secret shown once (or generated text), it is not stored: a replay answers 409 saying so. 1–255 visible ASCII characters, e.g. a UUID. */
                "Idempotency-Key"?: string;
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAnalyticsShareDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AnalyticsShareDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The app has 20 shared links (`share_limit_reached`); or an Idempotency-Key reused with another request, still in flight, or whose response is not kept */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 409,
                     *       "message": "App app_01JC3Z8W5Q4M0B7T2K9X1D6F3H has 20 shared links already, the most an app may have; delete one first",
                     *       "reason": "share_limit_reached"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body larger than 1 MiB */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 413,
                     *       "message": "Request body is larger than 1 MiB"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    AnalyticsSharesController_delete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    EnvVarsController_set: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                env: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetEnvVarDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVarDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Body is not application/json */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 415,
                     *       "message": "Content-Type must be application/json"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    EnvVarsController_remove: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                env: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    EnvVarsController_list: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                env: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvVarListDto"];
                };
            };
            /** @description Missing or invalid parameters; the message names every bad field */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 400,
                     *       "message": "name must be shorter than or equal to 100 characters"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Missing, invalid, expired or revoked credential */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 401,
                     *       "message": "Invalid, expired or revoked credential"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential lacks the scope this route needs */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 403,
                     *       "message": "This credential lacks the scope apps:write"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such resource for this account */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 404,
                     *       "message": "App not found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Rate limit reached; see Retry-After */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": true,
                     *       "code": 429,
                     *       "message": "Rate limit reached. Retry in 60 seconds."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
}

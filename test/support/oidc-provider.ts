import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import Provider from 'oidc-provider';

export interface OidcTestAccount {
  /** What the browser types into the provider's login form (its "login" field). */
  email: string;
  /** The `email_verified` claim: default true; null leaves the claim out. */
  emailVerified?: boolean | null;
  /** What the login form types (default: the e-mail). */
  login?: string;
  /** The `sub` claim (default: the login, lower-cased): another person at the provider behind the same e-mail. */
  sub?: string;
}

export interface OidcTestClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

/** Claims the harness overwrites in the ID token the provider issued (re-signed with the provider's own key). */
export type IdTokenTamper = Partial<Record<'aud' | 'iss' | 'nonce', string>>;

/**
 * A real OpenID provider (oidc-provider 8) on 127.0.0.1 at a random port, for the SSO tests:
 * authorization code flow with PKCE required, its own development login and consent forms (any
 * "login" of a known account; no password checked), ID tokens that carry `email` and
 * `email_verified`. `tamper` makes it misbehave: the ID token of the next token responses has those
 * claims replaced and is signed again with the provider's key, so the relying party sees a token
 * with a valid signature and a wrong audience, issuer or nonce.
 */
export class OidcTestProvider {
  tamper: IdTokenTamper | null = null;

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
    private readonly accounts: Map<string, OidcTestAccount>,
  ) {}

  /** Another account the login form accepts. */
  addAccount(account: OidcTestAccount): void {
    this.accounts.set((account.login ?? account.email).toLowerCase(), account);
  }

  static async start(options: { clients: OidcTestClient[]; accounts?: OidcTestAccount[] }): Promise<OidcTestProvider> {
    let handler: Parameters<typeof createServer>[1] = (_req, res) => res.writeHead(503).end();
    const server = createServer((req, res) => handler!(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const kid = randomBytes(8).toString('hex');
    const accounts = new Map((options.accounts ?? []).map((a) => [(a.login ?? a.email).toLowerCase(), a]));
    const provider = quietly(
      () =>
        new Provider(issuer, {
          clients: options.clients.map((c) => ({
            client_id: c.clientId,
            client_secret: c.clientSecret,
            redirect_uris: c.redirectUris,
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          })),
          jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] },
          cookies: { keys: [randomBytes(16).toString('hex')] },
          pkce: { required: () => true, methods: ['S256'] },
          claims: { openid: ['sub'], email: ['email', 'email_verified'] },
          // The e-mail in the ID token itself, as most enterprise providers put it.
          conformIdTokenClaims: false,
          features: { devInteractions: { enabled: true } },
          // Explicit lifetimes (the defaults log a notice each time they are used).
          ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 600 },
          findAccount: (_ctx: unknown, id: string) => {
            const account = accounts.get(id.toLowerCase());
            if (!account) return undefined;
            return {
              accountId: id.toLowerCase(),
              claims: () => ({
                sub: account.sub ?? id.toLowerCase(),
                email: account.email,
                ...(account.emailVerified === null ? {} : { email_verified: account.emailVerified ?? true }),
              }),
            };
          },
        }),
    );
    const harness = new OidcTestProvider(issuer, server, accounts);
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: string } | undefined;
      if (ctx.path === '/token' && harness.tamper && typeof body?.id_token === 'string') {
        ctx.body = { ...body, id_token: resigned(body.id_token, harness.tamper, privateKey, kid) };
      }
    });
    handler = provider.callback();
    return harness;
  }

  /**
   * What a browser does at the provider, over plain HTTP (no browser: cheaper): opens the
   * authorization URL, fills the login form as `login` and the consent form, following the
   * provider's redirects with its cookies. Answers where the provider sends the browser back (the
   * relying party's callback with the code and state).
   */
  async signInOverHttp(authorizationUrl: string, login: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authorizationUrl);
    let body: string | undefined;
    for (let step = 0; step < 12; step++) {
      const res = await fetch(url.href, {
        method: body === undefined ? 'GET' : 'POST',
        body,
        redirect: 'manual',
        headers: {
          cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
          ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
      }).catch((err: Error) => {
        throw new Error(`${url.href}: ${String(err.cause ?? err)}`);
      });
      for (const cookie of res.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      const location = res.headers.get('location');
      body = undefined;
      if (location) {
        url = new URL(location, url);
        if (url.origin !== new URL(this.issuer).origin) return url;
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]* action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`the provider answered ${res.status} with no form: ${html.slice(0, 300)}`);
      url = new URL(action.replaceAll('&amp;', '&'), url);
      body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any: the test provider checks none' } : { prompt }).toString();
    }
    throw new Error('the provider never sent the browser back');
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Runs `make` without oidc-provider's warnings that its in-memory store and development forms are for development: here they are meant. */
function quietly<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (!String(args[0]).startsWith('oidc-provider WARNING')) warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}

/** The JWT with `changes` applied to its claims, signed again (RS256) with the provider's key. */
function resigned(jwt: string, changes: IdTokenTamper, key: KeyObject, kid: string): string {
  const [, payload] = jwt.split('.');
  const claims = { ...(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>), ...changes };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${encode({ alg: 'RS256', typ: 'JWT', kid })}.${encode(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

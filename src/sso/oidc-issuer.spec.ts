import { checkIssuerHost, discoverIssuer, guardedFetch, issuerUrl } from './oidc-issuer.js';
import { SsoError } from './sso.errors.js';

describe('issuerUrl: https, or plain http on this machine only when the operator allows it', () => {
  it.each([
    ['https://acme.okta.com', false, false],
    ['https://login.microsoftonline.com/0b1c/v2.0', false, false],
    ['http://127.0.0.1:8080', true, true],
    ['http://localhost:8080/realms/acme', true, true],
    ['http://[::1]:9000', true, true],
  ])('accepts %s (loopback http: %s; allowed: %s)', (issuer, loopbackHttp, allow) => {
    expect(issuerUrl(issuer, allow)).toEqual({ url: new URL(issuer), loopbackHttp });
  });

  it.each([
    ['http://127.0.0.1:8080', false],
    ['http://localhost:8080', false],
    ['http://idp.example.com', true],
    ['http://127.0.0.1.example.com', true],
    ['http://10.0.0.5', true],
    ['http://localhost.example.com', true],
    ['ftp://127.0.0.1', true],
    ['https://user:pass@acme.okta.com', false],
    ['not a url', true],
  ])('refuses %s (loopback allowed: %s)', (issuer, allow) => {
    expect(() => issuerUrl(issuer, allow)).toThrow(SsoError);
    expect(() => issuerUrl(issuer, allow)).toThrow(expect.objectContaining({ reason: 'sso_issuer_insecure', status: 400 }));
  });
});

describe('the SSRF guard on issuers', () => {
  it.each(['https://127.0.0.1:8443', 'https://10.1.2.3', 'https://169.254.169.254/latest', 'https://[::1]', 'https://[fe80::1]', 'https://localhost'])(
    'refuses %s before any request, unless a provider on this machine is allowed',
    async (issuer) => {
      await expect(checkIssuerHost(new URL(issuer), false)).rejects.toMatchObject({ reason: 'sso_issuer_private', status: 400 });
      await expect(discoverIssuer(issuer, 'client', 'secret', false)).rejects.toMatchObject({ reason: 'sso_issuer_private' });
      await expect(checkIssuerHost(new URL(issuer), true)).resolves.toBeUndefined();
    },
  );

  it('answers one generic message, never the network error', async () => {
    // Nothing answers https on port 9 of this machine: allowed here, the refusal is the connection's.
    const err = await discoverIssuer('https://127.0.0.1:9', 'client', 'secret', true).catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'sso_discovery_failed', status: 422 });
    expect((err as Error).message).toBe(
      "The issuer's OpenID configuration could not be read: check that <issuer>/.well-known/openid-configuration answers over https and names this issuer",
    );
    expect((err as Error).message).not.toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('the guarded fetch connects to no private address, even one a public name resolves to later (checked at connect time)', async () => {
    await expect(guardedFetch('https://127.0.0.1:9/x', { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as never)).rejects.toThrow(
      'refused provider address',
    );
    await expect(guardedFetch('https://localhost:9/x', { method: 'GET', headers: {}, body: undefined, redirect: 'manual' } as never)).rejects.toMatchObject({
      code: 'EBLOCKED',
    });
  });
});

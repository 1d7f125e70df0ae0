import { issuerUrl } from './oidc-issuer.js';
import { SsoError } from './sso.errors.js';

describe('issuerUrl: https, or plain http only on this machine', () => {
  it.each([
    ['https://acme.okta.com', false],
    ['https://login.microsoftonline.com/0b1c/v2.0', false],
    ['http://127.0.0.1:8080', true],
    ['http://localhost:8080/realms/acme', true],
    ['http://[::1]:9000', true],
  ])('accepts %s (loopback http: %s)', (issuer, loopbackHttp) => {
    expect(issuerUrl(issuer)).toEqual({ url: new URL(issuer), loopbackHttp });
  });

  it.each(['http://idp.example.com', 'http://127.0.0.1.example.com', 'http://10.0.0.5', 'http://localhost.example.com', 'ftp://127.0.0.1', 'not a url'])(
    'refuses %s',
    (issuer) => {
      expect(() => issuerUrl(issuer)).toThrow(SsoError);
      expect(() => issuerUrl(issuer)).toThrow(expect.objectContaining({ reason: 'sso_issuer_insecure', status: 400 }));
    },
  );
});

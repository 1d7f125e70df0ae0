import type { ServerSecrets } from '../config/server-secrets.js';
import { createHmac } from 'node:crypto';
import { SignupTokens, TOKEN_MAX_AGE_MS } from './signup-token.js';

describe('SignupTokens', () => {
  const secrets = { keyFor: (purpose: string) => createHmac('sha256', 's'.repeat(32)).update(purpose).digest() } as unknown as ServerSecrets;
  const tokens = new SignupTokens(secrets);
  const t0 = Date.UTC(2026, 10, 22, 12);

  it('accepts its own token between 2 s and 2 h after rendering, naming the deployment', () => {
    const token = tokens.issue('dep_1', t0);
    expect(tokens.read(token, t0 + 2000)).toEqual({ deploymentId: 'dep_1' });
    expect(tokens.read(token, t0 + TOKEN_MAX_AGE_MS)).toEqual({ deploymentId: 'dep_1' });
  });

  it('tells why a token does not count', () => {
    const token = tokens.issue('dep_1', t0);
    expect(tokens.read(undefined, t0)).toEqual({ problem: 'token_missing' });
    expect(tokens.read(['a'], t0)).toEqual({ problem: 'token_missing' });
    expect(tokens.read(token, t0 + 500)).toEqual({ problem: 'too_fast' });
    expect(tokens.read(token, t0 + TOKEN_MAX_AGE_MS + 1)).toEqual({ problem: 'token_expired' });
    expect(tokens.read(token, t0 + 2 * 3600_000 + 1)).toEqual({ problem: 'token_expired' }); // valid 2 hours, no more
    expect(tokens.read(token.replace('dep_1', 'dep_2'), t0 + 5000)).toEqual({ problem: 'token_forged' });
    expect(tokens.read(`${token.slice(0, -2)}xx`, t0 + 5000)).toEqual({ problem: 'token_forged' });
    expect(tokens.read('garbage', t0)).toEqual({ problem: 'token_forged' });
    const otherKey = new SignupTokens({ keyFor: () => Buffer.alloc(32, 1) } as unknown as ServerSecrets);
    expect(tokens.read(otherKey.issue('dep_1', t0), t0 + 5000)).toEqual({ problem: 'token_forged' });
  });
});

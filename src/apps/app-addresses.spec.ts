import { loadConfig } from '../config/app-config.js';
import { newId } from '../common/ids.js';
import { AppAddresses } from './app-addresses.js';

describe('AppAddresses: the origins of sites with files', () => {
  const addresses = (env: Record<string, string>) => new AppAddresses(loadConfig(env));

  it('turns a deployment id into a DNS-safe label and back', () => {
    const a = addresses({});
    const id = newId('dep');
    const label = a.siteLabel(id);
    expect(label).toMatch(/^dep-[0-9a-z]{26}$/);
    expect(label).toBe(id.toLowerCase().replace('_', '-'));
    expect(a.deploymentIdOfLabel(label)).toBe(id);
  });

  it('names no deployment for a label that is not one', () => {
    const a = addresses({});
    for (const label of [
      'recipe-box',
      'dep-',
      'dep-01jc3z9a7b2c4d6e8f0g1h2j3',
      'dep-01jc3z9a7b2c4d6e8f0g1h2j3kk',
      'dep_01jc3z9a7b2c4d6e8f0g1h2j3k',
      'DEP-01JC3Z9A7B2C4D6E8F0G1H2J3K',
      'dep-01jc3z9a7b2c4d6e8f0g1h2j3u',
    ]) {
      expect(a.deploymentIdOfLabel(label)).toBeUndefined();
    }
  });

  it('serves under SITES_DOMAIN with the scheme of PUBLIC_URL', () => {
    expect(addresses({ SITES_DOMAIN: 'example-apps.com', PUBLIC_URL: 'https://api.example.com' }).siteOrigin('dep-x')).toBe('https://dep-x.example-apps.com');
    expect(addresses({ SITES_DOMAIN: 'apps.test', PUBLIC_URL: 'http://api.test:8080' }).siteOrigin('dep-x')).toBe('http://dep-x.apps.test');
  });

  it('serves under localhost:<port> without SITES_DOMAIN when PUBLIC_URL is local, and nowhere otherwise', () => {
    expect(addresses({ PORT: '3000' }).siteOrigin('dep-x')).toBe('http://dep-x.localhost:3000');
    expect(addresses({ PUBLIC_URL: 'http://127.0.0.1:4100' }).siteOrigin('dep-x')).toBe('http://dep-x.localhost:4100');
    expect(addresses({ PUBLIC_URL: 'http://localhost' }).siteOrigin('dep-x')).toBe('http://dep-x.localhost');
    expect(addresses({ PUBLIC_URL: 'https://api.example.com' }).siteOrigin('dep-x')).toBeUndefined();
  });
});

import { environmentReadings, siteLabelOfHost, sitesDomainOf } from './site-hosts.js';

describe('siteLabelOfHost', () => {
  const sites = { domain: 'apps.example.com' };

  it.each([
    ['recipe-box.apps.example.com', 'recipe-box'],
    ['Recipe-Box.APPS.example.com', 'recipe-box'],
    ['recipe-box.apps.example.com.', 'recipe-box'],
    ['recipe-box.apps.example.com:8443', 'recipe-box'],
    ['dep-01jc3z9a7b2c4d6e8f0g1h2j3k.apps.example.com', 'dep-01jc3z9a7b2c4d6e8f0g1h2j3k'],
    ['staging--recipe-box.apps.example.com', 'staging--recipe-box'],
  ])('%s names %s', (host, label) => {
    expect(siteLabelOfHost(host, sites)).toBe(label);
  });

  it.each(['a.b.apps.example.com', '-x.apps.example.com', 'x-.apps.example.com', 'under_score.apps.example.com', `${'a'.repeat(64)}.apps.example.com`])(
    '%s is under the domain but no site: 404, never the API',
    (host) => {
      expect(siteLabelOfHost(host, sites)).toBe('');
    },
  );

  it.each([
    'apps.example.com',
    'api.example.com',
    'evil.com',
    'recipe-box.apps.example.com.evil.com',
    'xapps.example.com',
    '[::1]:3000',
    '127.0.0.1:3000',
    undefined,
  ])('%s is not a site', (host) => {
    expect(siteLabelOfHost(host, sites)).toBeUndefined();
  });

  it('reads nothing without a sites domain', () => {
    expect(siteLabelOfHost('x.apps.example.com', undefined)).toBeUndefined();
  });
});

describe('sitesDomainOf', () => {
  it('is SITES_DOMAIN, else localhost for a local PUBLIC_URL, else none', () => {
    expect(sitesDomainOf({ SITES_DOMAIN: 'apps.example.com', publicUrl: 'https://api.example.com' })).toEqual({ domain: 'apps.example.com' });
    expect(sitesDomainOf({ publicUrl: 'http://localhost:3000' })).toEqual({ domain: 'localhost' });
    expect(sitesDomainOf({ publicUrl: 'http://127.0.0.1:41234' })).toEqual({ domain: 'localhost' });
    expect(sitesDomainOf({ publicUrl: 'https://api.example.com' })).toBeUndefined();
  });
});

describe('environmentReadings', () => {
  it('tries each -- as the split between an environment and a slug', () => {
    expect(environmentReadings('staging--recipe-box')).toEqual([{ env: 'staging', slug: 'recipe-box' }]);
    expect(environmentReadings('pr--42--my-app')).toEqual([
      { env: 'pr', slug: '42--my-app' },
      { env: 'pr--42', slug: 'my-app' },
    ]);
    expect(environmentReadings('recipe-box')).toEqual([]);
    expect(environmentReadings('1x--recipe-box')).toEqual([]);
  });
});

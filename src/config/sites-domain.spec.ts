import { ConfigError, loadConfig } from './app-config.js';
import { sitesDomainProblem } from './sites-domain.js';

describe('sitesDomainProblem', () => {
  it('refuses a SITES_DOMAIN the API’s host is under: an app with that slug would answer on the API’s origin', () => {
    expect(sitesDomainProblem('http://api.example.test', 'example.test')).toBe(
      "SITES_DOMAIN (example.test) and PUBLIC_URL's host (api.example.test): the API's host is a name under SITES_DOMAIN, so an app could be served on the API's origin; put the sites under a domain of their own (like example-apps.com)",
    );
    expect(sitesDomainProblem('https://API.Apps.Example.com:8443/', 'apps.example.com')).toMatch(/is a name under SITES_DOMAIN/);
  });

  it('refuses sites that share the API host’s registrable domain: their cookies would reach it', () => {
    for (const [publicUrl, sites, shared] of [
      ['http://example.test', 'apps.example.test', 'example.test'], // the API on the parent of the sites
      ['https://api.example.com', 'apps.example.com', 'example.com'], // siblings
      ['https://example.com', 'example.com', 'example.com'], // the sites' domain itself
      ['https://portal.example.co.uk', 'sites.example.co.uk', 'example.co.uk'], // by the list, not by the last two labels
    ]) {
      expect(sitesDomainProblem(publicUrl, sites)).toContain(`share the registrable domain ${shared}: any site could set cookies the API's host receives`);
    }
  });

  it('takes a separate registrable domain, one on the Public Suffix List, localhost, and an API reached by IP address', () => {
    for (const [publicUrl, sites] of [
      ['https://api.example.com', 'example-apps.com'],
      ['https://api.example.com', 'apps.example-apps.com'],
      ['https://github.com', 'github.io'], // on the list's private section: each site is its own registrable domain
      ['https://example.com', 'example.github.io'], // not under it
      ['http://localhost:3000', 'localhost'], // localhost is a public suffix: x.localhost cannot set cookies for it
      ['https://localhost', 'localhost'],
      ['http://127.0.0.1:3000', 'sites.test'],
      ['http://[::1]:3000', 'sites.test'],
      ['http://localhost:3000', 'apps.example.test'],
    ]) {
      expect({ publicUrl, sites, problem: sitesDomainProblem(publicUrl, sites) }).toEqual({ publicUrl, sites, problem: undefined });
    }
    expect(sitesDomainProblem('https://api.example.com', undefined)).toBeUndefined();
  });

  it('stops the start with one line naming both settings', () => {
    expect(() => loadConfig({ PUBLIC_URL: 'http://api.example.test', SITES_DOMAIN: 'example.test' })).toThrow(
      new ConfigError(
        "Invalid configuration: SITES_DOMAIN (example.test) and PUBLIC_URL's host (api.example.test): the API's host is a name under SITES_DOMAIN, so an app could be served on the API's origin; put the sites under a domain of their own (like example-apps.com)",
      ),
    );
    // Unset PUBLIC_URL is http://localhost:<PORT>: any SITES_DOMAIN but localhost's parents goes.
    expect(loadConfig({ SITES_DOMAIN: 'apps.example.test' }).SITES_DOMAIN).toBe('apps.example.test');
  });
});

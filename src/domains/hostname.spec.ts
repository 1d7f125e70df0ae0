import { hostnameOfHeader, parseHostname } from './hostname.js';

const ours = { sitesDomain: 'apps.example.net', publicHost: 'api.example.net' };
const reasonOf = (input: string) => {
  const parsed = parseHostname(input, ours);
  return 'problem' in parsed ? parsed.problem : parsed.hostname;
};

describe('parseHostname', () => {
  it('stores names in their lowercase ASCII form, internationalised ones as punycode', () => {
    expect(reasonOf('www.example.com')).toBe('www.example.com');
    expect(reasonOf('  WWW.Example.COM.  ')).toBe('www.example.com');
    expect(reasonOf('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(reasonOf('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(reasonOf('例え.テスト')).toBe('xn--r8jz45g.xn--zckzah');
    expect(reasonOf('a-b.c-d.example')).toBe('a-b.c-d.example');
    expect(reasonOf(`${'a'.repeat(63)}.example`)).toBe(`${'a'.repeat(63)}.example`);
  });

  it('refuses what is not a DNS name', () => {
    for (const bad of [
      '',
      'https://www.example.com',
      'www.example.com:443',
      'www.example.com/path',
      'user@example.com',
      'www example.com',
      '*.example.com',
      'example',
      '-lead.example.com',
      'trail-.example.com',
      'under_score.example.com',
      'a..b.example.com',
      `${'a'.repeat(64)}.example.com`,
      `${'abcdefghi.'.repeat(26)}com`,
      'example.123',
      'xn--a.example',
    ])
      expect({ bad, reason: reasonOf(bad) }).toEqual({ bad, reason: 'hostname_invalid' });
  });

  it('refuses IP addresses in any spelling, localhost, and the platform’s own names', () => {
    for (const ip of ['192.0.2.1', '::1', '[2001:db8::1]', '0x7f.1', '127.1', '3232235777'])
      expect({ ip, reason: reasonOf(ip) }).toEqual({ ip, reason: 'hostname_ip' });
    for (const local of ['localhost', 'LOCALHOST.', 'app.localhost'])
      expect({ local, reason: reasonOf(local) }).toEqual({ local, reason: 'hostname_localhost' });
    for (const own of ['apps.example.net', 'shop.apps.example.net', 'Deep.Shop.Apps.Example.Net.', 'api.example.net'])
      expect({ own, reason: reasonOf(own) }).toEqual({ own, reason: 'hostname_reserved' });
    // Look-alikes of ours are someone else's names.
    expect(reasonOf('notapps.example.net')).toBe('notapps.example.net');
    expect(reasonOf('api.example.net.evil.com')).toBe('api.example.net.evil.com');
  });

  it('names the hostname and the reason in its message', () => {
    expect(parseHostname('www.example.com:8080', ours)).toEqual({ problem: 'hostname_invalid', message: expect.stringContaining('"www.example.com:8080"') });
    expect(parseHostname('10.0.0.1', ours)).toEqual({ problem: 'hostname_ip', message: expect.stringContaining('IP address') });
  });
});

describe('hostnameOfHeader', () => {
  it('drops case, port and a trailing dot, and maps a Unicode name to ASCII', () => {
    expect(hostnameOfHeader('WWW.Example.com')).toBe('www.example.com');
    expect(hostnameOfHeader('www.example.com.:443')).toBe('www.example.com');
    expect(hostnameOfHeader('www.example.com:8080')).toBe('www.example.com');
    expect(hostnameOfHeader('bücher.example')).toBe('xn--bcher-kva.example');
  });

  it('answers nothing for IPv6 literals and missing hosts', () => {
    expect(hostnameOfHeader('[::1]:3000')).toBeUndefined();
    expect(hostnameOfHeader(undefined)).toBeUndefined();
    expect(hostnameOfHeader('')).toBeUndefined();
  });
});

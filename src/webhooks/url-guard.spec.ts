import { isBlockedAddress, urlProblem } from './url-guard.js';

describe('webhook url guard', () => {
  it.each([
    '10.0.0.1',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '2001:db8::1',
    '64:ff9b::a00:1',
    // v4 carried in v6: IPv4-compatible, IPv4-mapped in hex, IPv4-translated, NAT64
    '::127.0.0.1',
    '::7f00:1',
    '::8.8.8.8',
    '::ffff:7f00:1',
    '::ffff:0:7f00:1',
    '::ffff:0:127.0.0.1',
    '64:ff9b::127.0.0.1',
  ])('blocks %s', (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])('allows %s', (address) =>
    expect(isBlockedAddress(address)).toBe(false),
  );

  it('rejects http, private and loopback urls unless allowed', async () => {
    expect(await urlProblem('http://example.com/', false)).toMatch(/https/);
    expect(await urlProblem('https://10.0.0.1/', false)).toMatch(/private/);
    expect(await urlProblem('https://[::1]/', false)).toMatch(/private/);
    expect(await urlProblem('https://[::127.0.0.1]/', false)).toMatch(/private/);
    expect(await urlProblem('https://[0:0:0:0:0:ffff:127.0.0.1]/', false)).toMatch(/private/);
    expect(await urlProblem('https://[64:ff9b::7f00:1]/', false)).toMatch(/private/);
    // The refusal says how an operator allows such receivers in development.
    expect(await urlProblem('http://127.0.0.1:8080/hook', false)).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    expect(await urlProblem('https://10.0.0.1/', false)).toMatch(/WEBHOOK_ALLOW_PRIVATE=true/);
    expect(await urlProblem('https://localhost/', false)).toMatch(/private|resolve/);
    expect(await urlProblem('https://user:pw@8.8.8.8/', false)).toMatch(/credentials/);
    expect(await urlProblem('https://8.8.8.8/hook', false)).toBeNull();
    expect(await urlProblem('http://127.0.0.1:9/', true)).toBeNull();
    expect(await urlProblem('ftp://127.0.0.1/', true)).toMatch(/http/);
    expect(await urlProblem('not a url', true)).toMatch(/absolute/);
  });
});

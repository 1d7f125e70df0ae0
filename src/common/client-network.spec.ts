import { clientNetworkOf, truncatedIp } from './client-network.js';

describe('clientNetworkOf', () => {
  it('keeps an IPv4 address as it is, and maps an IPv4-mapped IPv6 address back to it', () => {
    expect(clientNetworkOf('203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetworkOf('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientNetworkOf('::FFFF:203.0.113.9')).toBe('203.0.113.9');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const net = '2001:db8:85a3:8d3::/64';
    expect(clientNetworkOf('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe(net);
    expect(clientNetworkOf('2001:0db8:85a3:08d3:ffff:ffff:ffff:ffff')).toBe(net);
    expect(clientNetworkOf('2001:DB8:85A3:8D3::1')).toBe(net);
    expect(clientNetworkOf('2001:db8:85a3:8d4::1')).not.toBe(net);
    expect(clientNetworkOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetworkOf('::1')).toBe('0:0:0:0::/64');
    expect(clientNetworkOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientNetworkOf('64:ff9b::203.0.113.9')).toBe('64:ff9b:0:0::/64');
    expect(clientNetworkOf('2001:db8:0:1::1%eth0')).toBe('2001:db8:0:1::/64');
  });

  it('leaves anything else as it came', () => {
    expect(clientNetworkOf('unknown')).toBe('unknown');
  });
});

describe('truncatedIp (the audit log keeps networks, not addresses)', () => {
  it('keeps the /24 of an IPv4 address and the /48 of an IPv6 one', () => {
    expect(truncatedIp('203.0.113.9')).toBe('203.0.113.0/24');
    expect(truncatedIp('::ffff:203.0.113.9')).toBe('203.0.113.0/24');
    expect(truncatedIp('2001:db8:85a3:8d3:1319:8a2e:370:7348')).toBe('2001:db8:85a3::/48');
    expect(truncatedIp('2001:DB8::1%eth0')).toBe('2001:db8:0::/48');
    expect(truncatedIp('::1')).toBe('0:0:0::/48');
    expect(truncatedIp('not an address')).toBe('unknown');
  });
});

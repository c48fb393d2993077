import { describe, expect, it } from 'vitest';
import { gatewayAddressProblem, PLAIN_HTTP_REFUSED } from '../../common/gateway-address';

/** The rule as the core and the screen apply it: parsed by the platform's WHATWG URL first. */
const problem = (address: string): string | undefined => {
  const u = new URL(address);
  return gatewayAddressProblem(u.protocol, u.hostname);
};

describe('gateway addresses the terminal may send card data to (PCI DSS 4.2.1)', () => {
  it('https anywhere; plain http on loopback only', () => {
    for (const ok of [
      'https://gateway.example.com',
      'https://10.0.0.5:8443/prefix',
      'http://127.0.0.1:8080',
      'http://127.8.9.10',
      'http://localhost:3000',
      'http://LOCALHOST',
      'http://[::1]:8080',
      'http://[0:0:0:0:0:0:0:1]/', // normalized to [::1]
      'http://2130706433/', // 127.0.0.1 as one number
      'http://0x7f.1/', // 127.0.0.1 in hex
      'http://user@127.0.0.1:9/',
    ])
      expect(problem(ok), ok).toBeUndefined();
  });

  it('refuses plain http to any other host with one clear message', () => {
    for (const bad of [
      'http://gateway.example.com',
      'http://10.0.0.5:8080',
      'http://192.168.1.20',
      'http://128.0.0.1',
      'http://127.0.0.1.example.com', // a name that starts like loopback
      'http://127.0.0.1@gateway.example.com/', // userinfo: the host is gateway.example.com
      'http://localhost.example.com',
      'http://[::2]',
      'http://[::ffff:127.0.0.1]', // IPv4-mapped: not in the allowed list
      'http://0.0.0.0:8080',
    ])
      expect(problem(bad), bad).toBe(PLAIN_HTTP_REFUSED);
    expect(PLAIN_HTTP_REFUSED).toMatch(/https:\/\//);
  });

  it('refuses other schemes', () => {
    for (const bad of ['ftp://gateway.example.com', 'ws://127.0.0.1:1', 'file:///etc/passwd'])
      expect(problem(bad), bad).toMatch(/must start with https:\/\//);
  });
});

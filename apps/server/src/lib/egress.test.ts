import { describe, expect, it } from 'vitest';
import { isPrivateAddress, privateTargetReason } from './egress';

describe('callback egress guard', () => {
  it('classifies loopback, private, link-local and mapped addresses as private', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '1.1.1.1', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });
  it('refuses URLs whose host is or resolves to a private address', async () => {
    expect(await privateTargetReason('http://127.0.0.1:9/cb')).toMatch(/private address/);
    expect(await privateTargetReason('http://[::1]/cb')).toMatch(/private address/);
    expect(await privateTargetReason('http://localhost/cb')).toMatch(/private address/);
    expect(await privateTargetReason('https://8.8.8.8/cb')).toBeNull();
    expect(await privateTargetReason('not a url')).toBe('invalid URL');
  });
});

import { describe, expect, it } from 'vitest';
import { addressIn, subnetList } from './ip-ranges';

describe('addressIn', () => {
  const loopback = subnetList([['127.0.0.0', 8]], [['::1', 128]]);
  it('checks an IPv4-mapped IPv6 address as its IPv4 address, however it is spelled', () => {
    for (const ip of ['127.0.0.1', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:7f00:1', '::FFFF:7F00:0001'])
      expect(addressIn(loopback, ip), ip).toBe(true);
    for (const ip of ['8.8.8.8', '::ffff:808:808', '::2']) expect(addressIn(loopback, ip), ip).toBe(false);
    expect(addressIn(loopback, '::1')).toBe(true);
  });
  it('is null for what is not an address', () => {
    for (const ip of ['', 'localhost', '127.1', '1.2.3.4.5', '::ffff:127.0.0.256'])
      expect(addressIn(loopback, ip), ip).toBeNull();
  });
});

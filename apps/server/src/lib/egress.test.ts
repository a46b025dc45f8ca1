import { describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fetch } from 'undici';
import { isPrivateAddress, literalPrivateTarget, publicOnlyDispatcher } from './egress';

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
  it('refuses a URL whose host is a literal private address before connecting', () => {
    expect(literalPrivateTarget('http://127.0.0.1:9/cb')).toMatch(/private address/);
    expect(literalPrivateTarget('http://[::1]/cb')).toMatch(/private address/);
    expect(literalPrivateTarget('https://8.8.8.8/cb')).toBeNull();
    expect(literalPrivateTarget('https://shop.example.com/cb')).toBeNull();
    expect(literalPrivateTarget('not a url')).toBe('invalid URL');
  });
  it('checks a host name where the connection is made: a name resolving to a private address never connects', async () => {
    const server = http.createServer((_req, res) => res.end('reached'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    let hits = 0;
    server.on('request', () => hits++);
    try {
      const err = await fetch(`http://localhost:${port}/cb`, { dispatcher: publicOnlyDispatcher }).then(
        () => null,
        (e: Error & { cause?: { code?: string; message?: string } }) => e,
      );
      expect(err?.cause?.code).toBe('EPRIVATEADDRESS');
      expect(err?.cause?.message).toMatch(/localhost resolves to a private address/);
      expect(hits).toBe(0);
      // the same server is reachable without the guard: the refusal is the lookup's, not the network's
      expect(await (await fetch(`http://127.0.0.1:${port}/cb`)).text()).toBe('reached');
    } finally {
      server.close();
    }
  });
});

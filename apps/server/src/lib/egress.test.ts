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
  it('judges an IPv6 address that leads to an IPv4 host by that IPv4 host, in every spelling', () => {
    for (const ip of [
      // IPv4-mapped, dotted and hex, short and full
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '0:0:0:0:0:ffff:7f00:1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe', // 169.254.169.254, the cloud metadata address
      // SIIT (RFC 6145)
      '::ffff:0:7f00:1',
      // IPv4-compatible (deprecated)
      '::127.0.0.1',
      '::7f00:1',
      '::a00:1',
      // NAT64, the well-known prefix, and the local-use one (refused whatever it embeds)
      '64:ff9b::7f00:1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::c0a8:101',
      '64:ff9b:1::808:808',
      // 6to4
      '2002:7f00:1::',
      '2002:7f00:1::1',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:101::1',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    // the same forms around a public IPv4 address lead to the public internet
    for (const ip of ['::ffff:8.8.8.8', '::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1'])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });
  it('refuses Teredo, special-purpose and unallocated IPv6 space; public IPv6 and IPv4 pass', () => {
    for (const ip of [
      '2001::1', // Teredo: tunnels to an IPv4 host through a relay
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:db8::1', // documentation
      'fec0::1', // old site-local
      '100::1', // discard
      '4000::1', // outside the global unicast space
      'fe80::1%eth0',
      '::',
      '100.64.0.1',
      '192.0.2.1',
      '255.255.255.255',
      '240.0.0.1',
      '127.1', // no shorthand forms: not an address Node connects to as such
      'localhost',
    ])
      expect(isPrivateAddress(ip), ip).toBe(true);
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '2001:4860:4860::8888',
      '2606:4700:4700::1111',
      '2a00:1450:4001:80b::200e',
    ])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });
  it('refuses a URL whose host is a literal private address before connecting', () => {
    expect(literalPrivateTarget('http://127.0.0.1:9/cb')).toMatch(/private address/);
    expect(literalPrivateTarget('http://[::1]/cb')).toMatch(/private address/);
    // the URL parser writes IPv4-mapped and embedded forms in hex: still refused
    for (const host of ['[::ffff:127.0.0.1]', '[::127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::]', '[2001::1]'])
      expect(literalPrivateTarget(`http://${host}/cb`), host).toMatch(/private address/);
    expect(literalPrivateTarget('https://[2001:4860:4860::8888]/cb')).toBeNull();
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

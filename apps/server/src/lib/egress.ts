import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent } from 'undici';

/*
 * Addresses a merchant-supplied URL must not reach from our network (SSRF): loopback, private, link-local,
 * carrier-grade NAT, multicast, reserved… The ranges are ipaddr.js's classification of the IANA special-purpose
 * registries (RFC 6890 and successors): a callback may go only to an ordinary public unicast address.
 *
 * An IPv6 address can name an IPv4 one, and reaching it reaches that IPv4 host: IPv4-mapped (::ffff:a.b.c.d in any
 * spelling, e.g. ::ffff:7f00:1), SIIT (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d), the NAT64 well-known
 * prefix (64:ff9b::a.b.c.d, through the network's NAT64 gateway) and 6to4 (2002:aabb:ccdd::, through a relay).
 * Those are judged by the IPv4 address they carry. Teredo (2001::/32) tunnels to IPv4 hosts through relays too and
 * is refused outright, as is NAT64's local-use prefix (64:ff9b:1::/48, a network's own translation).
 */

const NAT64_WELL_KNOWN = ipaddr.IPv6.parse('64:ff9b::');
/** IANA's global unicast space: every public IPv6 address is in it. */
const GLOBAL_UNICAST = ipaddr.IPv6.parse('2000::');

const ipv4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 address an IPv6 address leads to, for the forms that embed one; null for the others. */
function embeddedIPv4(a: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = a.parts;
  switch (a.range() as string) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return ipv4Of(p[6]!, p[7]!);
    case 'rfc6052': // NAT64 64:ff9b::a.b.c.d; the local-use 64:ff9b:1::/48 embeds it elsewhere and is refused
      return a.match(NAT64_WELL_KNOWN, 96) ? ipv4Of(p[6]!, p[7]!) : null;
    case '6to4': // 2002:aabb:ccdd::/48
      return ipv4Of(p[1]!, p[2]!);
  }
  // IPv4-compatible ::a.b.c.d (deprecated, but a stack may still route it to IPv4); :: and ::1 fall here too
  return p.slice(0, 6).every((x) => x === 0) ? ipv4Of(p[6]!, p[7]!) : null;
}

/** Not a public address (anything that is not an IP address counts as private). */
export function isPrivateAddress(ip: string): boolean {
  // only what Node itself would connect to as an address (no '127.1' or '0x7f.1' shorthands)
  if (net.isIP(ip) === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(ip);
  } catch {
    return true;
  }
  if (addr.kind() === 'ipv4') return addr.range() !== 'unicast';
  const v6 = addr as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return v4.range() !== 'unicast';
  return v6.range() !== 'unicast' || !v6.match(GLOBAL_UNICAST, 3);
}

/**
 * The DNS lookup of the connection itself, refusing private addresses: the address checked is the
 * address connected to (no window between a check and a second resolution, DNS rebinding).
 */
const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, list) => {
    if (err) return callback(err, '');
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad || !list.length) {
      const e: NodeJS.ErrnoException = new Error(
        bad ? `refused: ${hostname} resolves to a private address (${bad.address})` : `cannot resolve ${hostname}`,
      );
      e.code = 'EPRIVATEADDRESS';
      return callback(e, '');
    }
    if (options.all) return callback(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

/**
 * The HTTP client for merchant-supplied URLs: every connection's address is checked where it is made.
 * A literal IP in the URL is checked before (no lookup happens for it).
 */
export const publicOnlyDispatcher = new Agent({ connect: { lookup: publicOnlyLookup } });

/** A literal private IP in the URL (the connect-time lookup covers host names): a reason, or null. */
export function literalPrivateTarget(url: string): string | null {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return 'invalid URL';
  }
  return net.isIP(host) && isPrivateAddress(host) ? `refused: ${host} is a private address` : null;
}

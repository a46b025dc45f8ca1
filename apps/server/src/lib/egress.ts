import dns from 'node:dns';
import net from 'node:net';
import { Agent } from 'undici';
import { addressIn, subnetList } from './ip-ranges';

/** Addresses a merchant-supplied URL must not reach from our network (SSRF): loopback, private, link-local… */
const blocked = subnetList(
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['224.0.0.0', 3],
  ],
  [
    ['::', 128],
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
    ['ff00::', 8],
  ],
);

/** Not a public address (anything that is not an IP address counts as private). */
export function isPrivateAddress(ip: string): boolean {
  return addressIn(blocked, ip) ?? true;
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

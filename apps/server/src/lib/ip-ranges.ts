import net from 'node:net';
import ipaddr from 'ipaddr.js';

type Subnets = readonly (readonly [address: string, prefix: number])[];

/** A set of IPv4 and IPv6 subnets, e.g. the private networks. */
export function subnetList(ipv4: Subnets, ipv6: Subnets): net.BlockList {
  const list = new net.BlockList();
  for (const [addr, prefix] of ipv4) list.addSubnet(addr, prefix, 'ipv4');
  for (const [addr, prefix] of ipv6) list.addSubnet(addr, prefix, 'ipv6');
  return list;
}

/**
 * Is `ip` (IPv4 or IPv6) in `list`? An IPv4-mapped IPv6 address is checked as the IPv4 address it is, however it is
 * spelled (`::ffff:127.0.0.1` as Node reports it, `::ffff:7f00:1`, the full form). Null when `ip` is not an address.
 */
export function addressIn(list: net.BlockList, ip: string): boolean | null {
  if (net.isIP(ip) === 0) return null;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return null;
  }
  if (addr.kind() === 'ipv4') return list.check(addr.toString(), 'ipv4');
  // without a zone (fe80::1%eth0): BlockList takes the address alone
  return list.check(new ipaddr.IPv6((addr as ipaddr.IPv6).parts).toString(), 'ipv6');
}

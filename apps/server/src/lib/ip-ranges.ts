import net from 'node:net';

type Subnets = readonly (readonly [address: string, prefix: number])[];

/** A set of IPv4 and IPv6 subnets, e.g. the private networks. */
export function subnetList(ipv4: Subnets, ipv6: Subnets): net.BlockList {
  const list = new net.BlockList();
  for (const [addr, prefix] of ipv4) list.addSubnet(addr, prefix, 'ipv4');
  for (const [addr, prefix] of ipv6) list.addSubnet(addr, prefix, 'ipv6');
  return list;
}

/** Is `ip` (IPv4, IPv6, or IPv4-mapped IPv6 as Node reports it) in `list`? Null when `ip` is not an address. */
export function addressIn(list: net.BlockList, ip: string): boolean | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return list.check(mapped[1]!, 'ipv4');
  const family = net.isIP(ip);
  if (family === 0) return null;
  return list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

import { isIP } from 'node:net';

/** The key of requests whose socket has no address any more (the client hung up before the limit ran). */
export const NO_ADDRESS_KEY = 'no-address';

/** An IPv6 address's first four groups, the /64 one subscriber gets: rotating within it is one client. */
function ipv6Prefix64(address: string): string {
  const [head = '', tail] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * The per-client key of the rate limits: the client's address (an IPv4-mapped one as IPv4, an IPv6
 * one by its /64), never undefined. The plugin's own key throws on a request without an address,
 * which under load answered 500.
 */
export function clientKey(req: { ip?: string | undefined; socket?: { remoteAddress?: string | undefined } | undefined }): string {
  const ip = req.ip || req.socket?.remoteAddress;
  if (!ip) return NO_ADDRESS_KEY;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  return isIP(ip) === 6 && !ip.includes('.') ? ipv6Prefix64(ip) : ip.toLowerCase();
}

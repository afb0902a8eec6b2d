/**
 * Where a webhook may go (SSRF). Outside the embedded defaults an endpoint's URL must be https, carry
 * no credentials, and its host must resolve only to public unicast addresses: private (10/8,
 * 172.16/12, 192.168/16, fc00::/7), loopback, link-local (169.254/16, the cloud metadata address,
 * fe80::/10), unspecified, CGNAT (100.64/10), multicast, reserved and documentation ranges, and the
 * IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4, Teredo) are all refused. The ranges are
 * ipaddr.js's (`range()` is "unicast" only for a global address), not a hand-written list. The check
 * runs at registration and again at each delivery, through the connection's own DNS lookup
 * (`guardedLookup`), so the address checked is the address connected to: a name that resolves to a
 * public address when registered and to 127.0.0.1 later (DNS rebinding) is refused at delivery.
 * On the embedded defaults (one machine, local development, tests) loopback and private targets and
 * plain http are allowed; compose.ts decides from the configuration and passes the policy down.
 */
import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface TargetPolicy {
  /** Loopback, private and other non-public addresses allowed (the embedded defaults only). */
  allowPrivate: boolean;
  /** Plain http allowed (the embedded defaults only). */
  allowHttp: boolean;
}

/** The policy outside the embedded defaults. */
export const PRODUCTION_TARGETS: TargetPolicy = { allowPrivate: false, allowHttp: false };

/** The longest endpoint URL accepted. */
export const MAX_URL_LENGTH = 2048;

/** A target the policy refuses; its message is shown to the admin and kept in the delivery log. */
export class RefusedTarget extends Error {
  override name = 'RefusedTarget';
}

/** Whether an address (v4 or v6, any spelling) is a public unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  // process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 address it carries.
  const parsed = ipaddr.process(address);
  // The deprecated IPv4-compatible form (::127.0.0.1, ::/96) is no range of its own in ipaddr.js: refused here.
  if (
    parsed.kind() === 'ipv6' &&
    parsed
      .toByteArray()
      .slice(0, 12)
      .every((b) => b === 0)
  )
    return false;
  return parsed.range() === 'unicast';
}

/** The URL's host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The URL as the policy accepts it, checked without the network: http(s) (https outside the embedded
 * defaults), no user or password, and an IP literal only when public. Throws RefusedTarget.
 */
export function checkUrl(raw: string, policy: TargetPolicy): URL {
  if (raw.length > MAX_URL_LENGTH) throw new RefusedTarget(`The URL is longer than ${MAX_URL_LENGTH} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedTarget('The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RefusedTarget('The URL must start with https://.');
  if (url.protocol === 'http:' && !policy.allowHttp) throw new RefusedTarget('The URL must use https.');
  if (url.username || url.password) throw new RefusedTarget('The URL must not carry a user name or password.');
  if (!url.hostname) throw new RefusedTarget('The URL has no host.');
  const host = bareHost(url);
  if (!policy.allowPrivate && isIP(host) && !isPublicAddress(host))
    throw new RefusedTarget(`The address ${host} is not public (private, loopback, link-local or reserved).`);
  return url;
}

/** Every address `host` resolves to, each checked against the policy; throws RefusedTarget. */
function resolveChecked(host: string, policy: TargetPolicy): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(host, { all: true, verbatim: true }, (err, addresses) => {
      if (err || addresses.length === 0) return reject(new RefusedTarget(`The host ${host} could not be resolved.`));
      const bad = policy.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (bad) return reject(new RefusedTarget(`The host ${host} resolves to ${bad.address}, which is not a public address.`));
      resolve(addresses);
    });
  });
}

/**
 * Checks a URL for registration: `checkUrl`, then (outside the embedded defaults) every address its
 * host resolves to. Answers the URL as normalised.
 */
export async function checkTarget(raw: string, policy: TargetPolicy): Promise<string> {
  const url = checkUrl(raw, policy);
  const host = bareHost(url);
  if (!policy.allowPrivate && !isIP(host)) await resolveChecked(host, policy);
  return url.href;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The DNS lookup a delivery's connection uses (node:http's `lookup` option): it resolves the host,
 * refuses the connection when any address is not allowed, and hands the checked addresses to the
 * socket, so nothing resolves the name a second time between the check and the connection.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (host: string, options: { all?: boolean }, callback: LookupCallback): void => {
    resolveChecked(host, policy).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0]!.address, addresses[0]!.family)),
      (err: Error) => callback(Object.assign(err, { code: 'EREFUSEDTARGET' }), ''),
    );
  };
}

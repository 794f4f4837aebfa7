import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

/** Where webhooks and callbacks may go (contract §5): the production profile narrows it. */
export interface DestinationRules {
  requireHttps: boolean;
  /** Loopback, private, link-local and other non-public addresses. */
  allowPrivate: boolean;
  /** The host's own interface addresses, public ones included (a hosted sandbox, contract §22). */
  refuseOwnAddresses: boolean;
}

export const SANDBOX_DESTINATIONS: DestinationRules = {
  requireHttps: false,
  allowPrivate: true,
  refuseOwnAddresses: false,
};

/** The profiles both apps run under (contract §5). */
export const PROFILES = ['sandbox', 'production'] as const;
export type Profile = (typeof PROFILES)[number];

/** Contract §5: the sandbox sends anywhere; production demands https and public addresses unless allowed. */
export function destinationsOf(profile: Profile, allowPrivate: boolean): DestinationRules {
  return profile === 'sandbox'
    ? SANDBOX_DESTINATIONS
    : { requireHttps: true, allowPrivate, refuseOwnAddresses: false };
}

/** Every address a host name resolves to, as `dns.lookup` with `all: true` gives them. */
export type ResolveAll = (host: string) => Promise<string[]>;

export const resolveWithSystem: ResolveAll = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (error, addresses: LookupAddress[]) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    );
  });

/**
 * Only globally routable unicast addresses are public (contract §22). An IPv4-mapped address
 * (`::ffff:0:0/96`) is its IPv4, as a dual-stack socket connects to it. Every other IPv6 form
 * that carries an IPv4 address is refused whatever it carries, since where it leads depends on a
 * translator or tunnel the service cannot see: IPv4-compatible `::/96` (which ipaddr.js calls
 * unicast), translated `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, 6to4 and
 * Teredo (the last four are ranges of their own in ipaddr.js, so not unicast).
 */
export function isPublicAddress(address: string): boolean {
  const spelled = spelledOnce(address);
  if (spelled === undefined) return false;
  const parsed = ipaddr.parse(spelled);
  if (parsed.kind() === 'ipv6' && isIpv4Compatible(parsed as ipaddr.IPv6)) return false;
  return ipaddr.process(spelled).range() === 'unicast';
}

/**
 * An IP address as the URL parser spells it (IPv6 in hex groups, zone left off), or undefined
 * when it is none: ipaddr.js reads `::8.8.8.8` as the IPv4-mapped `::ffff:8.8.8.8`, not as the
 * IPv4-compatible `::808:808` it is.
 */
function spelledOnce(address: string): string | undefined {
  const bare = address.replace(/%.*$/, '');
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) !== 6) return undefined;
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}

/** In `::/96`: the first 96 bits zero (`::`, `::1` and the deprecated IPv4-compatible forms). */
function isIpv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}

/** An address in one canonical spelling, an IPv4-mapped one as its IPv4, without a zone. */
function canonical(address: string): string | undefined {
  const spelled = spelledOnce(address);
  return spelled === undefined ? undefined : ipaddr.process(spelled).toNormalizedString();
}

/** Every address of the host's network interfaces, as `os.networkInterfaces()` lists them. */
export type InterfaceAddresses = () => string[];

export const systemInterfaceAddresses: InterfaceAddresses = () =>
  Object.values(networkInterfaces()).flatMap((entries) => (entries ?? []).map((entry) => entry.address));

/**
 * What the rules refuse this address as, or undefined when they allow it: a non-public one unless
 * private ones are allowed, and one of the host's own interfaces when they say so (read at every
 * check, so an address the host gains later is refused too).
 */
export function addressRefusal(
  address: string,
  rules: DestinationRules,
  interfaces: InterfaceAddresses = systemInterfaceAddresses,
): string | undefined {
  if (!rules.allowPrivate && !isPublicAddress(address)) return `a non-public address (${address})`;
  if (!rules.refuseOwnAddresses) return undefined;
  const target = canonical(address);
  if (target === undefined) return `a non-public address (${address})`;
  return interfaces().some((own) => canonical(own) === target)
    ? `an address of this service's own host (${address})`
    : undefined;
}

/** The first of these addresses the rules refuse, with why; undefined when all are allowed. */
function firstRefusal(
  addresses: readonly string[],
  rules: DestinationRules,
  interfaces: InterfaceAddresses,
): string | undefined {
  for (const address of addresses) {
    const refusal = addressRefusal(address, rules, interfaces);
    if (refusal !== undefined) return refusal;
  }
  return undefined;
}

function hostOf(url: URL): string {
  // URL keeps IPv6 literals in brackets.
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Why a URL may not receive deliveries under these rules, or null when it may. A name is
 * checked through every address it resolves to, so one private answer is enough to refuse it.
 */
export async function refusalOf(
  target: string,
  rules: DestinationRules,
  resolveAll: ResolveAll = resolveWithSystem,
  interfaces: InterfaceAddresses = systemInterfaceAddresses,
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && (rules.requireHttps || url.protocol !== 'http:')) {
    return rules.requireHttps ? 'must use https' : 'must use http or https';
  }
  if (rules.allowPrivate && !rules.refuseOwnAddresses) return null;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolveAll(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  const refusal = firstRefusal(addresses, rules, interfaces);
  return refusal === undefined ? null : `host ${host} resolves to ${refusal}`;
}

/** The error of a refused destination; webhook-post.ts maps its code to `destination_refused`. */
function notPublic(why: string): NodeJS.ErrnoException {
  const denied: NodeJS.ErrnoException = new Error(why);
  denied.code = 'EADDRNOTPUBLIC';
  return denied;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for socket connections that refuses non-public addresses at connect time, so a
 * name that answered a public address when checked cannot rebind to a private one later.
 */
export function guardedLookup(
  rules: DestinationRules,
  interfaces: InterfaceAddresses = systemInterfaceAddresses,
) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, []);
        return;
      }
      const refusal = firstRefusal(
        addresses.map((a) => a.address),
        rules,
        interfaces,
      );
      if (refusal !== undefined) {
        callback(notPublic(`${hostname} resolves to ${refusal}`), []);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The connector of an undici Agent that applies the rules to every connection it opens. A name
 * goes through guardedLookup; an IP literal never reaches a lookup (net.connect skips it), so
 * it is checked here, before any socket is opened.
 */
export function guardedConnector(
  rules: DestinationRules,
  interfaces: InterfaceAddresses = systemInterfaceAddresses,
): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup(rules, interfaces) });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    const refusal = isIP(host) === 0 ? undefined : addressRefusal(host, rules, interfaces);
    if (refusal !== undefined) {
      callback(notPublic(`${host} is ${refusal}`), null);
      return;
    }
    connect(options, callback);
  };
}

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { buildConnector } from 'undici';

/** Where webhooks and callbacks may go (contract §5): the production profile narrows it. */
export interface DestinationRules {
  requireHttps: boolean;
  /** Loopback, private, link-local and other non-public addresses. */
  allowPrivate: boolean;
}

export const SANDBOX_DESTINATIONS: DestinationRules = { requireHttps: false, allowPrivate: true };

/** The profiles both apps run under (contract §5). */
export const PROFILES = ['sandbox', 'production'] as const;
export type Profile = (typeof PROFILES)[number];

/** Contract §5: the sandbox sends anywhere; production demands https and public addresses unless allowed. */
export function destinationsOf(profile: Profile, allowPrivate: boolean): DestinationRules {
  return profile === 'sandbox' ? SANDBOX_DESTINATIONS : { requireHttps: true, allowPrivate };
}

/** Every address a host name resolves to, as `dns.lookup` with `all: true` gives them. */
export type ResolveAll = (host: string) => Promise<string[]>;

export const resolveWithSystem: ResolveAll = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (error, addresses: LookupAddress[]) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    );
  });

/** Only globally routable unicast addresses are public; IPv4-mapped IPv6 counts as its IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
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
  if (rules.allowPrivate) return null;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolveAll(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  const refused = addresses.find((address) => !isPublicAddress(address));
  return refused === undefined ? null : `host ${host} resolves to a non-public address (${refused})`;
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
export function guardedLookup(rules: DestinationRules) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, []);
        return;
      }
      const refused = rules.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused !== undefined) {
        callback(notPublic(`${hostname} resolves to a non-public address (${refused.address})`), []);
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
export function guardedConnector(rules: DestinationRules): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup(rules) });
  return (options, callback) => {
    const host = options.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!rules.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      callback(notPublic(`${host} is a non-public address`), null);
      return;
    }
    connect(options, callback);
  };
}

import { type LookupAddress, lookup } from "node:dns";
import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector, type Dispatcher } from "undici";
import { InvalidInputError } from "../errors.js";
import { isForbiddenAddress } from "../webhooks/webhook-target.js";

/**
 * Where an organization's provider may point. Its admin is not the site's: a base URL at loopback, at a
 * link-local address (the cloud's metadata service) or on the hub's private network would let them reach,
 * through the hub's router and its health checks, what only the hub can. Refused unless the site allows
 * private targets (ORG_PROVIDERS_ALLOW_PRIVATE: the organizations' servers are on the hub's own network);
 * the hub itself always. Checked when saved and again at every connection (orgProviderAgent: a name may
 * resolve elsewhere later). The rules and the address list are the webhooks' (webhooks/webhook-target.ts).
 */
export interface OrgProviderTargetPolicy {
  allowPrivate: boolean;
  /** The hub's own origins (its public URL, its listening address): never a provider. */
  hubOrigins: () => readonly string[];
}

/** Throws InvalidInputError saying why `baseUrl` (already an http(s) URL) may not be an organization's. */
export async function checkOrgProviderTarget(
  baseUrl: string,
  policy: OrgProviderTargetPolicy,
): Promise<void> {
  const url = new URL(baseUrl);
  if (policy.hubOrigins().includes(url.origin)) {
    throw new InvalidInputError("An organization's provider cannot be the hub itself.");
  }
  if (policy.allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await dnsLookup(host, { all: true })).map((found) => found.address);
  } catch {
    throw new InvalidInputError(`The provider's host ${host} does not resolve.`);
  }
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) {
    throw new InvalidInputError(
      `The provider's host ${host} resolves to ${forbidden}, a loopback, link-local or private address: an ` +
        "organization's providers must be on public addresses unless the site administrator sets " +
        "ORG_PROVIDERS_ALLOW_PRIVATE=1.",
    );
  }
}

/**
 * Connections of organizations' providers: every address a name resolves to is checked when the connection is
 * made (a name that was public when saved may resolve inward later), and so is an address written in the URL
 * (which no lookup sees: a row edited past the save-time check).
 */
export function orgProviderAgent(): Dispatcher {
  const connector = buildConnector({ timeout: 10_000, lookup: publicLookup });
  return new Agent({
    connect(options, callback) {
      const host = options.hostname.replace(/^\[|\]$/g, "");
      if (isIP(host) !== 0 && isForbiddenAddress(host)) {
        callback(new Error(`${host} is a loopback, link-local or private address`), null);
        return;
      }
      connector(options, callback);
    },
  });
}

/** dns.lookup that keeps only public addresses, failing when a name has none. */
const publicLookup: LookupFunction = (hostname, options, callback) => {
  lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const usable = addresses.filter((found) => !isForbiddenAddress(found.address));
    if (usable.length === 0) {
      return callback(
        new Error(`${hostname} resolves only to loopback, link-local or private addresses`),
        "",
        4,
      );
    }
    if ((options as { all?: boolean }).all) {
      return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, usable);
    }
    callback(null, usable[0]!.address, usable[0]!.family);
  });
};

import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";
import { Agent } from "undici";
import { InvalidInputError } from "../errors.js";

/**
 * Where a webhook may post. A webhook is a request the hub makes on a user's behalf: pointed at the hub
 * itself, at loopback, at link-local addresses (169.254.169.254 is the cloud's metadata service) or at the
 * private network the hub sits in, it would let any user reach what only the hub can. Refused unless the
 * administrator allows private targets (WEBHOOK_ALLOW_PRIVATE, for receivers on the hub's own network); the
 * hub itself is refused always. Checked when the webhook is saved and again at every connection (the name's
 * addresses may have changed since: DNS rebinding), and redirects are never followed.
 */

const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  // ::, ::1 and the IPv4-compatible addresses (deprecated: no public host has one).
  ["::", 96],
  // SIIT's IPv4-translated addresses, NAT64's local-use prefix (RFC 8215: whatever the site maps it to),
  // the discard prefix, Teredo (an IPv4 address inside, obfuscated) and the documentation prefix.
  ["::ffff:0:0:0", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 32],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, "ipv6");
}

/** Whether an address is loopback, link-local, private or otherwise not on the public internet. */
export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isForbiddenAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    const inside = embeddedIpv4(address);
    if (inside !== undefined && isForbiddenAddress(inside)) return true;
  }
  return FORBIDDEN.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * The IPv4 address an IPv6 one leads to through a translator: NAT64's well-known prefix (64:ff9b::/96, which
 * DNS64 also gives public names on IPv6-only networks, so only the address inside decides) and 6to4
 * (2002::/16). `64:ff9b::a9fe:a9fe` is the metadata service wherever the host has NAT64.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const ipv4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) {
    return ipv4(groups[6]!, groups[7]!);
  }
  if (groups[0] === 0x2002) return ipv4(groups[1]!, groups[2]!);
  return undefined;
}

/** An IPv6 address (isIP said so) as its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  // The URL parser writes a dotted IPv4 tail in hex and drops a zone: only hex groups and "::" are left.
  const text = new URL(`http://[${address.replace(/%.*$/, "")}]`).hostname.slice(1, -1);
  const [head = "", tail] = text.split("::");
  const parse = (part: string) =>
    part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16));
  const start = parse(head);
  const end = tail === undefined ? [] : parse(tail);
  return [...start, ...new Array<number>(8 - start.length - end.length).fill(0), ...end];
}

export class WebhookTargetError extends InvalidInputError {}

export interface TargetPolicy {
  /** WEBHOOK_ALLOW_PRIVATE: loopback, link-local and private addresses are allowed. */
  allowPrivate: boolean;
  /** The hub's own origins (its public URL, its listening address): never a target. */
  hubOrigins: () => readonly string[];
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });
}

/** Throws WebhookTargetError saying what is wrong with `raw` as a webhook URL; returns the parsed URL. */
export async function checkTarget(raw: unknown, policy: TargetPolicy): Promise<URL> {
  if (typeof raw !== "string" || !URL.canParse(raw)) {
    throw new WebhookTargetError("The webhook's url must be an absolute http(s) URL.");
  }
  const url = new URL(raw);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebhookTargetError("The webhook's url must be an http(s) URL.");
  }
  if (url.username || url.password) {
    throw new WebhookTargetError("The webhook's url must not carry credentials: use its secret.");
  }
  if (policy.hubOrigins().some((origin) => origin === url.origin)) {
    throw new WebhookTargetError("A webhook cannot post to the hub itself.");
  }
  if (policy.allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolveAll(host)).map((found) => found.address);
  } catch {
    throw new WebhookTargetError(`The webhook's host ${host} does not resolve.`);
  }
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) {
    throw new WebhookTargetError(
      `The webhook's host ${host} resolves to ${forbidden}, a loopback, link-local or private address: ` +
        "webhooks post to public addresses only (an administrator may allow private ones with WEBHOOK_ALLOW_PRIVATE).",
    );
  }
  return url;
}

/**
 * The connections deliveries use: each resolved address is checked again when the connection is made, so a
 * name that resolved to a public address when the webhook was saved cannot send a delivery inward later.
 */
export function createDeliveryAgent(policy: Pick<TargetPolicy, "allowPrivate">, timeoutMs: number): Agent {
  return new Agent({
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: {
      lookup: (hostname, options, callback) => {
        dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
          if (error) return callback(error, "", 4);
          const usable = policy.allowPrivate
            ? addresses
            : addresses.filter((found) => !isForbiddenAddress(found.address));
          if (usable.length === 0) {
            return callback(
              new Error(`${hostname} resolves only to loopback, link-local or private addresses`),
              "",
              4,
            );
          }
          if ((options as { all?: boolean }).all)
            return (callback as (e: null, a: LookupAddress[]) => void)(null, usable);
          callback(null, usable[0]!.address, usable[0]!.family);
        });
      },
    },
  });
}

import { createHash } from "node:crypto";
import { HubError } from "../errors.js";

/**
 * Calls that come back to the hub through one of its own providers. An own provider's base URL may reach the
 * hub itself under a name its target check cannot know for the hub's (a trailing dot, another of its
 * addresses, a proxy in front of it, another hub whose own provider is this one): every completion the hub
 * makes there would make another, hundreds a second from one caller's call, until the first times out. So
 * calls to own providers say they went through this hub (`Via`, RFC 9110 §7.6.3, the chain of hubs they
 * already went through kept), and a completion that already did is refused: 508, never routed again.
 */

/** Hubs a call may have gone through before this one: a chain longer is a loop among other hubs. */
const MAX_HOPS = 8;

/**
 * This hub's name in `Via`: the same on every replica (they share the public URL), opaque (a provider
 * learns nothing from it), and another hub's unless it has the same public URL.
 */
export function hubHopName(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return `modelhub-${createHash("sha256").update(origin).digest("hex").slice(0, 16)}`;
}

export class LoopDetectedError extends HubError {
  constructor(message: string) {
    super(508, "loop_detected", message);
  }
}

/** Throws LoopDetectedError when a call's `Via` says it went through this hub already, or through too many. */
export function refuseLoop(via: string | undefined, hopName: string): void {
  if (via === undefined) return;
  const hops = via.split(",");
  const seen = hops.some((hop) => hop.trim().split(/\s+/)[1] === hopName);
  if (seen) {
    throw new LoopDetectedError(
      "This call came back to the hub through one of its own providers: a provider's base URL leads to the " +
        "hub itself. Its administrator must point it at the inference server instead.",
    );
  }
  if (hops.length >= MAX_HOPS) {
    throw new LoopDetectedError(
      `This call went through ${hops.length} hubs already (Via): refused as a loop among hubs' own providers.`,
    );
  }
}

/** The `Via` a call to an own provider carries: the caller's chain, then this hub. */
export function viaAfter(via: string | undefined, hopName: string): string {
  return via === undefined ? `1.1 ${hopName}` : `${via}, 1.1 ${hopName}`;
}

import { ALL_PROTOCOLS } from "../protocols/index.js";
import { type BuildRequestParams, type BuiltRequest, buildRequestWith } from "./request-builder.js";

export {
  type BuildRequestParams,
  type BuiltRequest,
  DEFAULT_HUB_URL,
  DEFAULT_ROUTER_URL,
  type TokenKind,
  tokenKind,
} from "./request-builder.js";

/**
 * The request for one inference call: URL, headers and body. Pure and synchronous, no network: the async
 * client and the snippet generator both use it, so there is one copy of the routing and body rules.
 * Binary inputs must already be encoded as the provider wants (the client does that before calling).
 */
export function buildRequest(params: BuildRequestParams): BuiltRequest {
  return buildRequestWith(ALL_PROTOCOLS, params);
}

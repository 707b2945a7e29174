import type { HubMetrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import type { Store } from "../store/store.js";
import type { ForwardResult } from "./forward.js";

export interface RouterCall {
  requestId: string;
  tokenId: number;
  userId: number;
  /** The organization paying (`X-HF-Bill-To`), or null. */
  billToId: number | null;
  provider: string;
  model: string | null;
  /** Where the call went (provider, provider-sim...), for the log only. */
  target: string;
  requestBytes: number;
}

/** Records one finished router call: usage for its token, and one log line (warn for upstream 5xx). */
export function recordRouterCall(
  deps: { store: Store; logger: Logger; metrics?: HubMetrics },
  call: RouterCall,
  result: ForwardResult,
) {
  const { requestBytes, ...identity } = call;
  const fields = { ...identity, ...result };
  try {
    deps.store.usage.record({
      tokenId: call.tokenId,
      userId: call.userId,
      billToId: call.billToId,
      provider: call.provider,
      model: call.model,
      status: result.status,
      requestBytes,
      responseBytes: result.responseBytes,
      durationMs: result.durationMs,
    });
  } catch (error) {
    // The store may already be closed when a stream ends during shutdown.
    deps.logger.log("warn", "usage not recorded", { ...fields, error });
  }
  deps.metrics?.observeRouterCall({ provider: call.provider, requestBytes, ...result });
  deps.logger.log(result.status >= 500 ? "warn" : "info", "router call", fields);
}

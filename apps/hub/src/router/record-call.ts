import type { HubMetrics } from "../http/metrics.js";
import type { Logger } from "../logger.js";
import type { ForwardResult } from "./forward.js";
import type { UsageTable } from "./usage-table.js";

export interface RouterCall {
  requestId: string;
  /** The caller's request, as the request log line names it (http/request-log.ts): this line replaces it. */
  method: string;
  path: string;
  /** When the route began (`performance.now()`): the line's `ms` runs from it to the call's end. */
  startedMs: number;
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

/** Where a routed call's usage record goes: the router's usage table (usage-table.ts). */
export type UsageRecorder = Pick<UsageTable, "record">;

/**
 * Records one finished router call: usage for its token, its metrics, and its log line (warn for upstream
 * 5xx). The line carries the request log line's fields too (`method`, `path`, `status`, `ms`): a request
 * that reached a provider is logged once, here, at its end, and the envelope writes no line of its own for
 * it (`requestLoggedByRoute`, set by the route that returns the answer).
 */
export function recordRouterCall(
  deps: { usage: UsageRecorder; logger: Logger; metrics?: HubMetrics },
  call: RouterCall,
  result: ForwardResult,
) {
  try {
    deps.usage.record({
      tokenId: call.tokenId,
      userId: call.userId,
      billToId: call.billToId,
      provider: call.provider,
      model: call.model,
      status: result.status,
      requestBytes: call.requestBytes,
      responseBytes: result.responseBytes,
      durationMs: result.durationMs,
    });
  } catch (error) {
    // The store may already be closed when a stream ends during shutdown.
    deps.logger.log("warn", "usage not recorded", { ...logFields(call, result), error });
  }
  deps.metrics?.observeRouterCall({
    provider: call.provider,
    status: result.status,
    durationMs: result.durationMs,
    requestBytes: call.requestBytes,
    responseBytes: result.responseBytes,
  });
  deps.logger.log(result.status >= 500 ? "warn" : "info", "router call", logFields(call, result));
}

/** The log line's fields: the call (without its request size) and its result, in one literal. */
function logFields(call: RouterCall, result: ForwardResult) {
  return {
    requestId: call.requestId,
    method: call.method,
    path: call.path,
    status: result.status,
    ms: Math.round((performance.now() - call.startedMs) * 10) / 10,
    tokenId: call.tokenId,
    userId: call.userId,
    billToId: call.billToId,
    provider: call.provider,
    model: call.model,
    target: call.target,
    responseBytes: result.responseBytes,
    durationMs: result.durationMs,
  };
}

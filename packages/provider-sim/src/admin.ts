import type { ServerResponse } from "node:http";
import { type FaultQueue, InvalidFaultError, parseFault } from "./faults.js";
import { type SimRequest, sendJson, sendText } from "./http.js";
import { simulatedProviders } from "./providers/index.js";
import type { RequestLog } from "./request-log.js";

export interface AdminState {
  simUrl: string;
  startedAt: number;
  log: RequestLog;
  faults: FaultQueue;
}

/**
 * `{url}/__sim/...`: health, the request log, the fault queue (for the CLI and for tests in other
 * processes) and the provider list. Admin calls are neither logged nor subject to faults.
 */
export function serveAdmin(request: SimRequest, res: ServerResponse, state: AdminState): void {
  const route = `${request.method} ${request.path}`;
  switch (route) {
    case "GET /__sim/health":
      sendJson(res, 200, {
        status: "ok",
        uptimeMs: Date.now() - state.startedAt,
        requests: state.log.entries.length,
        pendingFaults: state.faults.list().length,
      });
      return;
    case "GET /__sim/requests":
      sendJson(res, 200, state.log.entries);
      return;
    case "DELETE /__sim/requests":
      state.log.clear();
      sendText(res, 204, "");
      return;
    case "GET /__sim/faults":
      sendJson(res, 200, state.faults.list());
      return;
    case "POST /__sim/faults":
      try {
        const faults = (Array.isArray(request.json) ? request.json : [request.json]).map(parseFault);
        for (const fault of faults) state.faults.add(fault);
        sendJson(res, 201, state.faults.list());
      } catch (error) {
        if (!(error instanceof InvalidFaultError)) throw error;
        sendJson(res, 400, { error: error.message });
      }
      return;
    case "DELETE /__sim/faults":
      state.faults.set(null);
      sendText(res, 204, "");
      return;
    case "GET /__sim/providers":
      sendJson(
        res,
        200,
        simulatedProviders().map((provider) => ({ ...provider, url: `${state.simUrl}/${provider.name}` })),
      );
      return;
    default:
      sendJson(res, 404, { error: `No admin route ${route}` });
  }
}

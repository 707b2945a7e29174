import { createServer, type Server } from "node:http";
import type { ForwardResult, ForwardTimeouts } from "../forward.js";
import { pipeToProvider } from "../pipe-forward.js";
import type { Upstream } from "../upstreams.js";

/**
 * A bare node:http server that sends every request through pipeToProvider to `baseUrl` with `key` as the
 * provider key: the router's exchange with a provider alone, without callers, models or routing. Listening on
 * loopback when it resolves.
 */
export async function startPipeHub(options: {
  baseUrl: string;
  key: string;
  publicUrl: string;
  onDone(result: ForwardResult): void;
  timeouts?: ForwardTimeouts;
}): Promise<Server> {
  const upstream: Upstream = {
    provider: "together",
    baseUrl: options.baseUrl,
    authHeader: { name: "authorization", value: `Bearer ${options.key}` },
    target: "override",
    secret: options.key,
  };
  const hub = createServer((incoming, outgoing) => {
    pipeToProvider({
      upstream,
      method: "POST",
      pathAndQuery: "/v1/chat/completions",
      headers: incoming.headers,
      forwardSimHeaders: false,
      body: Buffer.from("{}"),
      requestId: "r",
      timeouts: options.timeouts ?? { headersMs: 5000, idleMs: 5000 },
      outgoing,
      answerHeaders: [],
      publicUrl: options.publicUrl,
      sendError: (error) => outgoing.writeHead(error.status).end(error.message),
      onDone: options.onDone,
    });
  });
  await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
  return hub;
}

import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { getGlobalDispatcher } from "undici";
import { HubError } from "../../errors.js";
import type { ForwardResult, ForwardTimeouts } from "../forward.js";
import { callProvider, providerRewrites, RetrySafeFailure } from "../provider-call.js";
import type { Upstream } from "../upstreams.js";

/**
 * A bare Hono app on node:http that sends every request through callProvider to `baseUrl` with `key` as the
 * provider key: the router's exchange with a provider alone, without callers, models or routing (errors are
 * answered as plain text with their status). Listening on loopback when it resolves.
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
  const rewrites = providerRewrites(options.publicUrl)(upstream);
  const app = new Hono();
  app.all("*", async (c) => {
    const answer = await callProvider({
      dispatcher: getGlobalDispatcher(),
      upstream,
      rewrites,
      method: "POST",
      pathAndQuery: "/v1/chat/completions",
      callerHeaders: c.req.header(),
      forwardSimHeaders: false,
      body: Buffer.from("{}"),
      requestId: "r",
      timeouts: options.timeouts ?? { headersMs: 5000, idleMs: 5000 },
      signal: c.req.raw.signal,
      onDone: options.onDone,
    });
    if (answer instanceof RetrySafeFailure) throw new Error("no failover here");
    return new Response(answer.body as ReadableStream<Uint8Array> | null, {
      status: answer.status,
      headers: answer.headers,
    });
  });
  app.onError((error) =>
    HubError.isInstance(error)
      ? new Response(error.message, { status: error.status })
      : new Response(String(error), { status: 500 }),
  );
  const hub = createAdaptorServer({
    fetch: app.fetch,
    // As the hub's server: an HTTP/1.0 caller may send no Host.
    hostname: "127.0.0.1",
    serverOptions: { requireHostHeader: false },
  }) as Server;
  await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
  return hub;
}

/**
 * The hub's HTTP stack with none of the hub in it: one Hono app on @hono/node-server whose one route reads the
 * body, sends it to `{upstream}{path}` with undici's `request()` and answers as the router's `provider-call.ts`
 * and `openai-api.ts` do: a small answer of known length (JSON) read whole and sent as bytes, any other as a
 * web `ReadableStream` pulled read by read (no authentication, no model
 * lookup, no usage, no logs, no middleware). Set beside the bare proxy (node:http + undici `stream()`), it
 * says what the stack itself costs per call, before any of the router's logic. Run as its own process:
 * `hono-proxy.ts <upstream base URL>`; prints `{"url": ...}`.
 */
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Readable } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import { Hono } from "hono";
import { Agent } from "undici";
import { HOP_BY_HOP } from "./hop-by-hop.js";

const upstream = new URL(process.argv[2] ?? "");
const basePath = upstream.pathname.replace(/\/$/, "");
const agent = new Agent({ connections: 256, keepAliveTimeout: 30_000 });
const WHOLE_ANSWER_BYTES = 256 * 1024;
const endToEnd = (headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) => {
  const kept = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept.set(name, String(value));
  }
  return kept;
};

/** undici's body as the router hands it to Hono: `read()` on "readable", pulled only when the caller pulls. */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  let waiting = false;
  let passOn = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        passOn = () => {
          const chunk = body.read() as Buffer | null;
          if (chunk === null) waiting = true;
          else {
            waiting = false;
            controller.enqueue(chunk);
          }
        };
        body.on("readable", () => {
          if (waiting) passOn();
        });
        body.once("end", () => controller.close());
        body.once("error", (error) => controller.error(error));
      },
      pull: () => passOn(),
      cancel: () => {
        body.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

const app = new Hono();
app.post("*", async (c) => {
  const answer = await agent.request({
    origin: upstream.origin,
    path: basePath + c.req.path,
    method: "POST",
    headers: {
      "content-type": c.req.header("content-type") ?? "application/json",
      authorization: c.req.header("authorization") ?? "",
    },
    body: Buffer.from(await c.req.arrayBuffer()),
    signal: c.req.raw.signal,
  });
  const length = Number(answer.headers["content-length"] ?? -1);
  // As the router answers (openai-api.ts `answerOf`): its own Response with the answer's `Headers`, not
  // `c.body(body, { headers })`, which copies them one `set` at a time. A small answer of known length is
  // read whole and sent as bytes with its length (@hono/node-server writes such a body at once); any other
  // is a web stream pulled read by read.
  const init = { status: answer.statusCode, headers: endToEnd(answer.headers) };
  if (length >= 0 && length <= WHOLE_ANSWER_BYTES) {
    return new Response(Buffer.from(await answer.body.arrayBuffer()), init);
  }
  return new Response(webStream(answer.body), init);
});

const server = createAdaptorServer({ fetch: app.fetch, hostname: "127.0.0.1" });
// Idle connections kept as long as the hub keeps them (its KEEP_ALIVE_SECONDS default).
(server as Server).keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`,
  );
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));

import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { hubRequestId } from "./request-id.js";

const app = new Hono<{ Variables: { requestId: string } }>();
app.use("*", hubRequestId());
app.get("/", (c) => c.text(c.get("requestId")));

async function idsFor(headers: Record<string, string>) {
  const response = await app.request("/", { headers });
  return { echoed: response.headers.get("X-Request-Id"), logged: await response.text() };
}

describe("the request id", () => {
  it("keeps the caller's X-Request-Id", async () => {
    expect(await idsFor({ "X-Request-Id": "caller-1", "X-Amzn-Trace-Id": "trace-1" })).toEqual({
      echoed: "caller-1",
      logged: "caller-1",
    });
  });

  it("echoes huggingface_hub's X-Amzn-Trace-Id as X-Request-Id", async () => {
    const trace = "Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8";
    expect(await idsFor({ "X-Amzn-Trace-Id": trace })).toEqual({ echoed: trace, logged: trace });
  });

  it("makes a new id when the caller's are unsafe to echo or log", async () => {
    for (const headers of <Record<string, string>[]>[
      { "X-Amzn-Trace-Id": "bad id <script>" },
      { "X-Amzn-Trace-Id": "a".repeat(256) },
      {},
    ]) {
      const { echoed, logged } = await idsFor(headers);
      expect(echoed).toMatch(/^[0-9a-f-]{36}$/);
      expect(logged).toBe(echoed);
    }
  });
});

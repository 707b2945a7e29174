import { HonoRequest } from "hono/request";
import { describe, expect, it } from "vitest";
import { answerHeaders, forwardableCallerHeaders } from "./exchange-heads.js";
import { compileRewrites } from "./stream-rewriter.js";

describe("answerHeaders", () => {
  it("drops a provider's X-Accel-* headers: an answer must not steer nginx in front of the hub", () => {
    const headers = answerHeaders(
      {
        "content-type": "application/json",
        "x-accel-redirect": "/_hub_blobs/sha256/ab/cd/abcd",
        "x-accel-buffering": "no",
        "set-cookie": "a=b",
        "x-request-id": "upstream-1",
      },
      compileRewrites([]),
    );
    expect([...headers.keys()].sort()).toEqual(["content-type", "x-provider-request-id"]);
  });
});

describe("forwardableCallerHeaders", () => {
  const request = () =>
    new HonoRequest(
      new Request("http://hub.example/v1/chat/completions", {
        method: "POST",
        headers: [
          ["Authorization", "Bearer hf_caller"],
          ["Content-Type", "application/json"],
          ["Accept", "text/event-stream"],
          ["Accept", "application/json"],
          ["OpenAI-Organization", "org-x"],
          ["X-Sim-Fail", "500"],
          ["Cookie", "session=s"],
        ],
      }),
    );

  it("takes only the headers a provider may get, duplicates joined as Hono joins them", () => {
    expect(forwardableCallerHeaders(request(), false)).toEqual({
      "content-type": "application/json",
      accept: "text/event-stream, application/json",
    });
  });

  it("takes every header when provider-sim's are passed on (forwardedHeaders filters them)", () => {
    expect(forwardableCallerHeaders(request(), true)).toMatchObject({
      authorization: "Bearer hf_caller",
      "x-sim-fail": "500",
      accept: "text/event-stream, application/json",
    });
  });
});

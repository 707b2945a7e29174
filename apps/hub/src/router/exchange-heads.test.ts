import { describe, expect, it } from "vitest";
import { answerHeaders } from "./exchange-heads.js";
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

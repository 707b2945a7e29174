import { describe, expect, it } from "vitest";
import { frameChunk } from "./pipe-forward.js";

describe("frameChunk", () => {
  it("frames data as one HTTP/1.1 chunk: hex size, CRLF, data, CRLF", () => {
    expect(frameChunk(Buffer.from("hello")).toString("latin1")).toBe("5\r\nhello\r\n");
    const event = Buffer.from(`data: ${"x".repeat(300)}\n\n`);
    const framed = frameChunk(event);
    expect(framed.subarray(0, 5).toString("latin1")).toBe(`${event.byteLength.toString(16)}\r\n`);
    expect(framed.subarray(5, 5 + event.byteLength).equals(event)).toBe(true);
    expect(framed.subarray(-2).toString("latin1")).toBe("\r\n");
  });
});

import { describe, expect, it } from "vitest";
import { completionTokens } from "./openai-api.js";

const bytes = (value: unknown) => Buffer.from(typeof value === "string" ? value : JSON.stringify(value));

describe("completionTokens (throughput of whole chat answers)", () => {
  it("reads usage.completion_tokens of an answer, compact or spaced", () => {
    const answer = {
      choices: [{ message: { content: "Paris" } }],
      usage: { prompt_tokens: 9, completion_tokens: 32 },
    };
    expect(completionTokens(bytes(answer))).toBe(32);
    expect(completionTokens(bytes(JSON.stringify(answer, null, 2)))).toBe(32);
  });

  it("is not fooled by the key written in the answer's text, and finds none in an answer without usage", () => {
    const text = 'say "completion_tokens": 999999';
    expect(completionTokens(bytes({ choices: [{ message: { content: text } }] }))).toBeUndefined();
    expect(
      completionTokens(bytes({ choices: [{ message: { content: text } }], usage: { completion_tokens: 5 } })),
    ).toBe(5);
    expect(completionTokens(bytes({ usage: { completion_tokens: null } }))).toBeUndefined();
    expect(completionTokens(bytes("not json"))).toBeUndefined();
  });

  it("reads a view into a larger buffer by its own bytes", () => {
    const whole = Buffer.concat([
      bytes('{"usage":{"completion_tokens":7}}'),
      bytes('{"completion_tokens":8}'),
    ]);
    expect(completionTokens(whole.subarray(0, 33))).toBe(7);
  });
});

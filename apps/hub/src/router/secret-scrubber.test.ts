import { describe, expect, it } from "vitest";
import { createSecretScrubber, scrubHeaderValue } from "./secret-scrubber.js";

const SECRET = "hf_simSECRET123";

function run(chunks: string[]): { out: string; emitted: string[] } {
  const scrubber = createSecretScrubber(SECRET);
  const emitted = chunks.map((chunk) => scrubber.push(Buffer.from(chunk)).toString());
  const out = emitted.join("") + scrubber.end().toString();
  return { out, emitted };
}

describe("the secret scrubber", () => {
  it("passes chunks on untouched and at once when they hold no part of the secret", () => {
    const { out, emitted } = run(['data: {"a":1}\n\n', "data: [DONE]\n\n"]);
    expect(emitted).toEqual(['data: {"a":1}\n\n', "data: [DONE]\n\n"]);
    expect(out).toBe('data: {"a":1}\n\ndata: [DONE]\n\n');
  });

  it("redacts the secret inside a chunk, several times", () => {
    expect(run([`key=${SECRET} and ${SECRET}!`]).out).toBe("key=[redacted] and [redacted]!");
  });

  it("redacts a secret split across chunks, at every split point", () => {
    const body = `before ${SECRET} after`;
    for (let split = 1; split < body.length; split++) {
      expect(run([body.slice(0, split), body.slice(split)]).out).toBe("before [redacted] after");
    }
    expect(run([...body].map((c) => c)).out).toBe("before [redacted] after");
  });

  it("gives back what it held when the secret does not follow", () => {
    const { out, emitted } = run(["tail hf_si", "gh"]);
    expect(emitted[0]).toBe("tail ");
    expect(out).toBe("tail hf_sigh");
    expect(run(["ends with hf_sim"]).out).toBe("ends with hf_sim");
  });

  it("scrubs header values", () => {
    expect(scrubHeaderValue(`Bearer ${SECRET}`, SECRET)).toBe("Bearer [redacted]");
    expect(scrubHeaderValue([`a=${SECRET}`, "b"], SECRET)).toEqual(["a=[redacted]", "b"]);
    expect(scrubHeaderValue("plain", SECRET)).toBe("plain");
  });
});

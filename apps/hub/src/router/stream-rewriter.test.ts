import { describe, expect, it } from "vitest";
import {
  compileRewrites,
  createStreamRewriter,
  redact,
  rewriteBody,
  rewriteHeaderValue,
} from "./stream-rewriter.js";

const SECRET = "hf_simSECRET123";

function run(chunks: string[]): { out: string; emitted: string[] } {
  const scrubber = createStreamRewriter([redact(SECRET)]);
  const emitted = chunks.map((chunk) => scrubber.push(Buffer.from(chunk)).toString());
  const out = emitted.join("") + scrubber.end().toString();
  return { out, emitted };
}

describe("the stream rewriter", () => {
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
    expect(run(["ends with hf_"]).out).toBe("ends with hf_");
  });

  it("redacts the start of the key an answer ends with, from four characters on", () => {
    expect(run(["ends with hf_s"]).out).toBe("ends with [redacted]");
    expect(run(["ends with hf_simSECRET12"]).out).toBe("ends with [redacted]");
  });

  it("scrubs header values", () => {
    expect(rewriteHeaderValue(`Bearer ${SECRET}`, [redact(SECRET)])).toBe("Bearer [redacted]");
    expect(rewriteHeaderValue([`a=${SECRET}`, "b"], [redact(SECRET)])).toEqual(["a=[redacted]", "b"]);
    expect(rewriteHeaderValue("plain", [redact(SECRET)])).toBe("plain");
  });

  it("moves the provider's own URLs onto the hub's, split or not", () => {
    const rewriter = createStreamRewriter([
      redact(SECRET),
      { find: "http://10.0.0.5:9000/bfl", replace: "https://hub.example/router/black-forest-labs" },
    ]);
    const out = [
      rewriter.push(Buffer.from('{"polling_url":"http://10.0.0.')),
      rewriter.push(Buffer.from('5:9000/bfl/v1/get_result?id=1"}')),
      rewriter.end(),
    ].join("");
    expect(out).toBe('{"polling_url":"https://hub.example/router/black-forest-labs/v1/get_result?id=1"}');
  });
});

describe("a whole body", () => {
  it("is the same buffer when nothing in it is to be rewritten, and rewritten otherwise", () => {
    const compiled = compileRewrites([redact(SECRET)]);
    const clean = Buffer.from('{"ok":true}');
    expect(rewriteBody(clean, compiled)).toBe(clean);
    expect(rewriteBody(Buffer.from(`{"echo":"${SECRET}"}`), compiled).toString()).toBe(
      '{"echo":"[redacted]"}',
    );
  });
});

describe("every form of the key", () => {
  const KEY = "sk-Op3rAtor/Key_9fQ2";
  const jsonEscape = (text: string, every = 1, upperHex = false) =>
    [...text]
      .map((char, i) => {
        if (i % every !== 0) return char;
        const hex = char.charCodeAt(0).toString(16).padStart(4, "0");
        return `\\u${upperHex ? hex.toUpperCase() : hex}`;
      })
      .join("");
  const forms: Record<string, string> = {
    literal: KEY,
    lower: KEY.toLowerCase(),
    upper: KEY.toUpperCase(),
    "JSON-escaped": jsonEscape(KEY),
    "JSON-escaped, upper-case hex": jsonEscape(KEY, 1, true),
    "half JSON-escaped, half lower-case": jsonEscape(KEY.toLowerCase(), 2),
    "escaped slash": KEY.replace("/", "\\/"),
    "percent-encoded": encodeURIComponent(KEY),
    "fully percent-encoded": [...Buffer.from(KEY)].map((b) => `%${b.toString(16)}`).join(""),
    base64: Buffer.from(KEY).toString("base64"),
    base64url: Buffer.from(KEY).toString("base64url"),
    "base64 after one byte": Buffer.from(`:${KEY}`).toString("base64"),
    "base64 after two bytes": Buffer.from(`u:${KEY}`).toString("base64"),
    "base64 of a Bearer header": Buffer.from(`Bearer ${KEY}!`).toString("base64"),
  };
  /** Whether any readable part of the key survived: its longest run of characters, in any case. */
  const leaks = (out: string, form: string) =>
    out.includes(form) || out.toLowerCase().includes(KEY.toLowerCase().slice(0, 8));

  it.each(Object.entries(forms))("redacts the key %s, whole or split at every point", (_name, form) => {
    const body = `data: {"echo":"${form}"}\n\n`;
    const whole = rewriteBody(Buffer.from(body), compileRewrites([redact(KEY)])).toString();
    expect(whole).toContain("[redacted]");
    expect(leaks(whole, form)).toBe(false);
    for (let split = 1; split < body.length; split++) {
      const scrubber = createStreamRewriter([redact(KEY)]);
      const out = [body.slice(0, split), body.slice(split)]
        .map((part) => scrubber.push(Buffer.from(part)).toString())
        .join("");
      expect(out + scrubber.end().toString(), `split at ${split}`).not.toContain(form);
    }
  });

  // The chunks searched exactly are chosen by their first two characters in any form (KeyForms.mayHold).
  it.each([
    ["an escaped slash, then percent-encoded", "\\/%61"],
    ["upper-case JSON escapes", "\\u002F\\u0041"],
    ["percent-encoded, either hex case", "%2f%41"],
    ["percent-encoded, upper-case hex", "%2F%61"],
    ["as written, other case", "/A"],
  ])("redacts a key whose first two characters are %s", (_name, head) => {
    const key = "/a9-Key-for-the-router";
    const body = `data: {"echo":"${head}${key.slice(2)}"}\n\n`;
    const out = rewriteBody(Buffer.from(body), compileRewrites([redact(key)])).toString();
    expect(out).toBe('data: {"echo":"[redacted]"}\n\n');
  });

  it("leaves text that only resembles the key alone", () => {
    const compiled = compileRewrites([redact(KEY)]);
    for (const text of ["sk-Op3rAtor/Key_9fQ", "\\u0073k-other", "%73%6b-", "sk sk- \\n \\u00"]) {
      expect(rewriteBody(Buffer.from(text), compiled).toString()).toBe(text);
    }
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import corpus from "./__fixtures__/chat-templates.json" with { type: "json" };
import { renderChatTemplate, Template, TemplateError } from "./index.js";

/**
 * Property tests over mutated corpus templates and random token soup: whatever the input, the engine
 * returns a string or throws one of its own TemplateError subclasses, and finishes quickly (limits).
 */

const LIMITS = { maxLoopIterations: 5_000, maxOutputLength: 50_000, maxRecursionDepth: 50 };
const conversation = {
  messages: [
    { role: "system", content: "sys" },
    { role: "user", content: "hello" },
    { role: "assistant", content: "hi", tool_calls: [{ function: { name: "f", arguments: { a: 1 } } }] },
    { role: "tool", content: "42" },
  ],
  tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
  add_generation_prompt: true,
  bos_token: "<s>",
  eos_token: "</s>",
};

/** Runs the engine; fails the property on any non-TemplateError exception or a slow render. */
function renderSafely(source: string): void {
  const started = performance.now();
  try {
    const template = new Template(source, { limits: LIMITS, now: () => new Date(2024, 0, 1) });
    renderChatTemplate(template, conversation);
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
  }
  expect(performance.now() - started).toBeLessThan(1000);
}

const TOKENS = [
  "{{",
  "}}",
  "{%",
  "%}",
  "{#",
  "#}",
  "{%-",
  "-%}",
  "{{-",
  "-}}",
  "{%+",
  "for",
  "in",
  "endfor",
  "if",
  "elif",
  "else",
  "endif",
  "set",
  "=",
  "endset",
  "macro",
  "endmacro",
  "call",
  "endcall",
  "filter",
  "endfilter",
  "raw",
  "endraw",
  "break",
  "continue",
  "recursive",
  "loop",
  "loop.index",
  "loop(",
  "messages",
  "message",
  "m",
  "x",
  "tools",
  "range(",
  "range(10)",
  "namespace(",
  "ns.x",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  ":",
  ".",
  "|",
  "~",
  "+",
  "-",
  "*",
  "/",
  "//",
  "%",
  "**",
  "==",
  "!=",
  "<",
  ">",
  "not",
  "and",
  "or",
  "is",
  "defined",
  "none",
  "true",
  "'str'",
  '"q"',
  "'",
  '"',
  "0",
  "1",
  "2.5",
  "-1",
  "1e400",
  "tojson",
  "trim",
  "join",
  "map",
  "attribute=",
  "selectattr",
  "length",
  "default",
  "upper",
  "items()",
  "split(",
  "strip(",
  "format(",
  "raise_exception(",
  "__proto__",
  "constructor",
  "\n",
  " ",
  "  ",
  "text",
  "\\",
  "caller()",
  "varargs",
];

const tokenSoup = fc
  .array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 40 })
  .map((tokens) => tokens.join(""));

const templates = (corpus as { template: string }[]).map((entry) => entry.template);

/** A corpus template with a few random edits (deletions, duplications, insertions, swaps). */
const mutatedTemplate = fc
  .tuple(
    fc.constantFrom(...templates),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 40 }),
        fc.constantFrom("delete", "duplicate", "insert", "swap"),
        fc.constantFrom(...TOKENS),
      ),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([source, edits]) => {
    let text = source;
    for (const [at, length, kind, token] of edits) {
      const pos = text.length === 0 ? 0 : at % text.length;
      const end = Math.min(text.length, pos + length);
      if (kind === "delete") text = text.slice(0, pos) + text.slice(end);
      else if (kind === "duplicate") text = text.slice(0, end) + text.slice(pos, end) + text.slice(end);
      else if (kind === "insert") text = text.slice(0, pos) + token + text.slice(pos);
      else {
        const other = (at * 7) % Math.max(1, text.length);
        text = text.slice(0, pos) + text.slice(other, other + length) + text.slice(end);
      }
    }
    return text;
  });

const DANGEROUS = [
  "constructor",
  "__proto__",
  "prototype",
  "call",
  "apply",
  "bind",
  "toString",
  "valueOf",
  "__defineGetter__",
  "hasOwnProperty",
  "__class__",
  "__globals__",
  "caller",
  "arguments",
  "length",
  "then",
];
const BASES = [
  "range",
  "namespace()",
  "loop",
  "''",
  "[]",
  "{}",
  "messages",
  "messages[0]",
  "raise_exception",
  "cycler(1)",
  "('x'|safe)",
  "dict",
  "tools[0].function",
  "strftime_now",
];

const escapeAttempt = fc
  .tuple(
    fc.constantFrom(...BASES),
    fc.array(
      fc.tuple(fc.constantFrom(...DANGEROUS), fc.constantFrom("", "()", "('return process')", "[0]")),
      {
        minLength: 1,
        maxLength: 4,
      },
    ),
  )
  .map(([base, chain]) => {
    const expr = base + chain.map(([name, suffix]) => `.${name}${suffix}`).join("");
    return `{% for _ in [1] %}{{ ${expr} }}{% endfor %}`;
  });

describe("robustness (fast-check)", () => {
  it("random token soup only ever throws TemplateError", () => {
    fc.assert(
      fc.property(tokenSoup, (source) => renderSafely(source)),
      { numRuns: 600, seed: 42 },
    );
  });

  it("mutated corpus templates only ever throw TemplateError", () => {
    fc.assert(
      fc.property(mutatedTemplate, (source) => renderSafely(source)),
      { numRuns: 300, seed: 7 },
    );
  });

  it("attribute chains over every reachable value never expose JavaScript internals", () => {
    fc.assert(
      fc.property(escapeAttempt, (source) => {
        let output = "";
        try {
          output = renderChatTemplate(new Template(source, { limits: LIMITS }), conversation);
        } catch (error) {
          if (!(error instanceof TemplateError)) throw error;
        }
        expect(output).not.toMatch(/function|native code|\[object|process/i);
      }),
      { numRuns: 400, seed: 3 },
    );
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

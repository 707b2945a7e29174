import { describe, expect, it } from "vitest";
import { LimitExceededError, SecurityError, Template, TemplateError, TemplateSyntaxError } from "./index.js";

/** Templates are untrusted: they must not reach JS internals, and must stop at the configured limits. */

const context = () => ({
  x: { a: 1 },
  s: "text",
  l: [1, 2],
  messages: [{ role: "user", content: "hi" }],
  fn: () => "host function",
});

/** Renders; returns the output, or the error if it is one of ours (anything else fails the test). */
function attempt(source: string, ctx: Record<string, unknown> = context()): string | TemplateError {
  try {
    return new Template(source, { limits: { maxLoopIterations: 10_000 } }).render(ctx);
  } catch (error) {
    if (error instanceof TemplateError) return error;
    throw error;
  }
}

const ESCAPES = [
  "{{ x.__proto__ }}",
  "{{ x.constructor }}",
  "{{ x.constructor.constructor('return process')() }}",
  "{{ s.constructor.constructor('return globalThis')() }}",
  "{{ ''.constructor }}",
  "{{ [].constructor.constructor }}",
  "{{ l['constructor'] }}",
  "{{ x['__proto__']['constructor'] }}",
  "{{ range.constructor }}",
  "{{ range.call }}{{ range.apply }}{{ range.bind }}",
  "{{ range.call(none, 1) }}",
  "{{ namespace.prototype }}",
  "{{ raise_exception.constructor('return 1')() }}",
  "{% for i in l %}{{ loop.constructor }}{{ loop.__proto__ }}{% endfor %}",
  "{% set ns = namespace() %}{{ ns.constructor }}{{ ns.attrs }}",
  "{{ x.toString() }}",
  "{{ x.valueOf() }}",
  "{{ x.hasOwnProperty('a') }}",
  "{{ s.toString }}{{ s.length }}{{ s.charAt(0) }}",
  "{{ l.map }}{{ l.length }}{{ l.push(3) }}",
  "{{ x.__defineGetter__ }}{{ x.__lookupGetter__ }}",
  "{{ fn() }}",
  "{{ fn.call() }}",
  "{{ fn.constructor('return process')() }}",
  "{{ (x|safe).constructor }}",
  "{{ x.__class__.__mro__ }}{{ ''.__class__.__subclasses__() }}",
  "{{ cycler.constructor }}{{ joiner().constructor }}",
  "{{ strftime_now.caller }}{{ strftime_now.arguments }}",
  "{{ l.append(3) }}",
  "{{ x.update({'a': 2}) }}",
  "{{ messages.pop() }}",
];

describe("sandbox", () => {
  it.each(ESCAPES)("%s never reaches JavaScript internals", (source) => {
    const result = attempt(source);
    if (typeof result === "string") {
      expect(result).not.toMatch(/function|native code|\[object|process|globalThis/i);
    }
  });

  it("refuses mutating Python methods like ImmutableSandboxedEnvironment", () => {
    expect(attempt("{{ l.append(3) }}")).toBeInstanceOf(SecurityError);
    expect(attempt("{{ x.update({'a': 2}) }}")).toBeInstanceOf(SecurityError);
  });

  it("does not call host functions passed in the context", () => {
    expect(attempt("{{ fn() }}")).toBeInstanceOf(SecurityError);
  });

  it("calls host functions registered explicitly as template functions", () => {
    const t = new Template("{{ shout('hi') }}", {
      functions: { shout: (v) => `${String(v).toUpperCase()}!` },
    });
    expect(t.render()).toBe("HI!");
  });

  it("keeps prototypes clean whatever a template assigns", () => {
    const sources = [
      "{% set ns = namespace() %}{% set ns.__proto__ = {'polluted': 1} %}{{ ns.polluted }}",
      "{% set x = {'__proto__': {'polluted': 1}} %}{{ x.polluted }}{{ x.__proto__.polluted }}",
      "{% set d = dict(__proto__={'polluted': 1}) %}{{ d.polluted }}",
      "{% set __proto__ = {'polluted': 1} %}{{ polluted }}",
      "{% set constructor = 1 %}{% set toString = 2 %}{{ constructor }}{{ toString }}",
      "{% set ns = namespace(constructor={'prototype': {'polluted': 1}}) %}{{ ns.constructor.prototype.polluted }}",
      "{% macro m(__proto__) %}{{ polluted }}{% endmacro %}{{ m({'polluted': 1}) }}",
    ];
    for (const source of sources) {
      const result = attempt(source);
      if (typeof result === "string") expect(result).not.toContain("1 ");
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(attempt("{% set x = {'__proto__': {'polluted': 1}} %}{{ x.polluted }}|{{ x['__proto__'] }}")).toBe(
      "|{'polluted': 1}",
    );
  });

  it("treats JS objects from the context as Python dicts (own keys only)", () => {
    const data = Object.create({ inherited: "no" });
    data.own = "yes";
    expect(attempt("{{ d.own }}|{{ d.inherited }}|{{ d|length }}|{{ d.keys()|list }}", { d: data })).toBe(
      "yes||1|['own']",
    );
  });

  it("stops runaway loops at the iteration limit", () => {
    const started = Date.now();
    const result = attempt(
      "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
    );
    expect(result).toBeInstanceOf(LimitExceededError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("stops unbounded recursion (macros and recursive loops)", () => {
    expect(attempt("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}")).toBeInstanceOf(LimitExceededError);
    expect(attempt("{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}")).toBeInstanceOf(
      LimitExceededError,
    );
  });

  it("stops output and value growth at the size limit", () => {
    const small = { limits: { maxOutputLength: 10_000 } };
    const grow = (source: string) => {
      try {
        return new Template(source, small).render();
      } catch (error) {
        return error;
      }
    };
    expect(grow("{% for i in range(1000) %}{{ 'xxxxxxxxxxxxxxxxxxxx' }}{% endfor %}")).toBeInstanceOf(
      LimitExceededError,
    );
    expect(grow("{{ 'x' * 100000000 }}")).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ [1] * 100000000 }}")).toBeInstanceOf(LimitExceededError);
    expect(
      grow("{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}"),
    ).toBeInstanceOf(LimitExceededError);
    expect(
      grow("{% set ns = namespace(l=[1]) %}{% for i in range(64) %}{% set ns.l = ns.l + ns.l %}{% endfor %}"),
    ).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ '{:>900000000}'.format('x') }}")).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ 'x'|center(900000000) }}")).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ 'a\\nb'|indent(900000000) }}")).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ [1]|tojson(indent=900000000) }}")).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ ('\\t' * 100000).expandtabs(100000) }}")).toBeInstanceOf(LimitExceededError);
    expect(grow("{{ '%900000000s' % 'x' }}")).toBeInstanceOf(LimitExceededError);
  });

  it("rejects absurdly nested templates with a syntax error instead of crashing", () => {
    const deep = `{{ ${"(".repeat(20000)}1${")".repeat(20000)} }}`;
    expect(attempt(deep)).toBeInstanceOf(TemplateSyntaxError);
  });

  it("survives cyclic context data with a typed error", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(attempt("{{ c.self.self.name }}", { c: cyclic })).toBe("loop");
    expect(attempt("{{ c }}", { c: cyclic })).toBeInstanceOf(TemplateError);
  });
});

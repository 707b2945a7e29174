import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { precompileTemplate, Template, TemplateError, TemplateSyntaxError } from "./index.js";

/**
 * `Template.fromPrecompiled(precompileTemplate(source))` must behave exactly like `new Template(source)`:
 * checked on every corpus chat template and every snippet template of packages/snippets, with several
 * contexts each, comparing outputs and errors.
 */

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8"));
const corpus: { id: string; template: string; bos_token?: string; eos_token?: string }[] =
  fixture("chat-templates.json");
const conversations: ({ id: string } & Record<string, unknown>)[] =
  fixture("chat-goldens.json").conversations;

const snippetsDir = new URL("../../snippets/templates/", import.meta.url);
const snippetTemplates = (readdirSync(snippetsDir, { recursive: true }) as string[])
  .filter((path) => path.endsWith(".jinja"))
  .sort()
  .map((path) => ({ id: path, template: readFileSync(new URL(path, snippetsDir), "utf8") }));

const now = () => new Date(2024, 6, 26, 14, 30, 45);

/** What a template does with a context: its output, or the class and message of what it throws. */
function outcome(make: () => Template, context: Record<string, unknown>): string {
  try {
    return `output: ${make().render(structuredClone(context))}`;
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return `${error.name}: ${error.message}`;
  }
}

function expectSameBehaviour(source: string, contexts: Record<string, unknown>[]): void {
  let precompiled: string;
  try {
    precompiled = precompileTemplate(source);
  } catch (error) {
    expect(error).toBeInstanceOf(TemplateSyntaxError);
    expect(() => new Template(source)).toThrow(error as Error);
    return;
  }
  for (const context of contexts) {
    const direct = outcome(() => new Template(source, { now }), context);
    expect(outcome(() => Template.fromPrecompiled(precompiled, { now }), context)).toBe(direct);
  }
}

/**
 * A context for a snippet template: every `name.attr.attr` path it reads gets a two-line string (so that
 * `indent` has work to do) and every bare name a one-line string.
 */
function snippetContext(source: string): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  const visit = (node: unknown): string[] | null => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return null;
    }
    if (node === null || typeof node !== "object") return null;
    const n = node as Record<string, unknown>;
    if (n.kind === "name" && typeof n.name === "string") return [n.name];
    if (n.kind === "getattr") {
      const path = visit(n.obj);
      return path ? [...path, n.attr as string] : null;
    }
    for (const value of Object.values(n)) {
      const path = visit(value);
      if (path) define(path);
    }
    return null;
  };
  const define = (path: string[]) => {
    let target = context;
    for (const [i, key] of path.entries()) {
      if (i === path.length - 1) {
        if (!(key in target)) target[key] = `<${path.join(".")}>\n  second line`;
      } else {
        if (typeof target[key] !== "object") target[key] = {};
        target = target[key] as Record<string, unknown>;
      }
    }
  };
  visit(JSON.parse(precompileTemplate(source))[1]);
  return context;
}

describe("precompileTemplate + Template.fromPrecompiled", () => {
  it("finds the corpus and the snippet templates", () => {
    expect(corpus.length).toBeGreaterThan(50);
    expect(snippetTemplates.length).toBeGreaterThan(20);
  });

  it("renders every corpus template as `new Template` does (outputs and errors)", () => {
    const picked = [conversations[0]!, ...conversations.filter((c) => c.tools || c.documents).slice(0, 2)];
    picked.push(conversations[conversations.length - 1]!);
    for (const entry of corpus) {
      const contexts = picked.map(({ id: _id, ...conversation }) => ({
        tools: null,
        documents: null,
        add_generation_prompt: false,
        ...conversation,
        bos_token: entry.bos_token ?? "<s>",
        eos_token: entry.eos_token ?? "</s>",
      }));
      expectSameBehaviour(entry.template, contexts);
    }
  });

  it("renders every snippet template as `new Template` does, with and without its variables", () => {
    for (const { template } of snippetTemplates) {
      const full = snippetContext(template);
      expect(Object.keys(full).length).toBeGreaterThan(0);
      expectSameBehaviour(template, [full, {}, { ...full, billTo: null, parameters: {} }]);
    }
  });

  it("keeps values JSON cannot hold: integral floats, infinities, -0, ints past 2**53, macro special names", () => {
    const source =
      "{{ 1.0 }} {{ 2.50 }} {{ 1e400 }} {{ -1e400 }} {{ 0.0 }} {{ -0.0 }} {{ [1.0, 2] }} {{ 9007199254740993 }}" +
      "{% macro m() %}{{ varargs }}{{ kwargs }}{{ caller() }}{% endmacro %}" +
      "{% call m(1, 2, k=3) %}inner{% endcall %}";
    const expected = new Template(source).render();
    expect(expected).toBe("1.0 2.5 inf -inf 0.0 -0.0 [1.0, 2] 9007199254740993(1, 2){'k': 3}inner");
    expect(Template.fromPrecompiled(precompileTemplate(source)).render()).toBe(expected);
  });

  it("leaves template text that looks like an encoded value alone", () => {
    const text = '{"$float": "1"} {"$set": []} ';
    for (const source of [`${text}{{ x }}`, `${text}{% macro m() %}{{ varargs }}{% endmacro %}{{ m(1) }}`]) {
      expect(Template.fromPrecompiled(precompileTemplate(source)).render({ x: 2 })).toBe(
        new Template(source).render({ x: 2 }),
      );
    }
  });

  it("applies the parse options when precompiling", () => {
    const source = "  {% if x %}\nyes\n{% endif %}\n";
    for (const options of [
      {},
      { trimBlocks: false },
      { lstripBlocks: false },
      { keepTrailingNewline: true },
    ]) {
      const precompiled = precompileTemplate(source, options);
      expect(Template.fromPrecompiled(precompiled).render({ x: 1 })).toBe(
        new Template(source, options).render({ x: 1 }),
      );
    }
  });

  it("raises the same syntax error as `new Template`", () => {
    const source = "a\n{% for x in y %}{{ x | nosuchfilter }}{% endfor %}";
    expect(() => precompileTemplate(source)).toThrow(TemplateSyntaxError);
    expect(() => precompileTemplate(source)).toThrow(/No filter named 'nosuchfilter'/);
    expect(() => precompileTemplate("{% for x in y %}")).toThrow(
      expect.objectContaining({ line: 1, openBlock: "for", expected: "'endfor' or 'else'" }),
    );
  });

  it("takes the render options at fromPrecompiled", () => {
    const precompiled = precompileTemplate("{{ shout('hi') }} {{ strftime_now('%Y') }}");
    const template = Template.fromPrecompiled(precompiled, {
      now: () => new Date(2001, 0, 1),
      functions: { shout: (s) => `${s}!` },
    });
    expect(template.render()).toBe("hi! 2001");
    expect(() =>
      Template.fromPrecompiled(precompileTemplate("{% for i in range(10) %}{% endfor %}"), {
        limits: { maxLoopIterations: 5 },
      }).render(),
    ).toThrow(/loop/);
  });

  it("rejects a stale format version, foreign strings and damaged ones with a TemplateError", () => {
    const precompiled = precompileTemplate("{{ x }}");
    const stale = precompiled.replace(/^\["modelhub-jinja\/\d+"/, '["modelhub-jinja/0"');
    expect(() => Template.fromPrecompiled(stale)).toThrow(
      new TemplateError(
        "precompiled template has format 0, this engine reads format 1: precompile it again with this version",
      ),
    );
    expect(() => Template.fromPrecompiled("{{ x }}")).toThrow(/not a precompiled template/);
    expect(() => Template.fromPrecompiled(precompiled.slice(0, -3))).toThrow(TemplateError);
    // A node the compiler does not know fails with a typed error (at compile or at render time).
    const damaged = precompiled.replace('"name"', '"nonsense"');
    expect(() => Template.fromPrecompiled(damaged).render({ x: 1 })).toThrow(TemplateError);
  });
});

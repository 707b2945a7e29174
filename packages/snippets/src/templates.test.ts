import { readFileSync } from "node:fs";
import { Template } from "@modelhub/jinja";
import { describe, expect, it } from "vitest";
import {
  fieldsRead,
  GENERATED_FILE,
  readTemplateSources,
  renderTemplatesModule,
} from "../scripts/build-templates.js";
import { compileTemplate, TemplateCompileError } from "../scripts/compile-template.js";
import { TEMPLATES } from "./templates.generated.js";
import { findTemplate, hasTemplate, loadTemplate } from "./templates.js";

describe("templates.generated.ts", () => {
  it("is what `npm run templates` makes from templates/ (run it after editing a template)", () => {
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(renderTemplatesModule());
  });

  it("holds every template, and each compiled one renders as @modelhub/jinja renders its source", () => {
    const sources = readTemplateSources();
    expect(Object.keys(TEMPLATES)).toEqual([...sources.keys()]);
    // Every variable a template may test or print, with texts that show which one was printed.
    const value = (name: string) => ({ obj: name, py: `${name}.py`, ts: `${name}.ts`, sh: `${name}.sh` });
    const inputFields: Record<string, unknown> = {};
    for (const source of sources.values()) {
      for (const [, field] of source.matchAll(/inputFields\.(\w+)/g)) inputFields[field!] = value(field!);
    }
    const variables: Record<string, unknown> = {
      ...Object.fromEntries([...fieldsRead(sources.values()).keys()].map((name) => [name, value(name)])),
      usesEnv: true,
      customHub: true,
      methodName: "method",
      fsImports: "readFile",
      importBase64: true,
      importJson: true,
      headerWordsJson: ["h1", "h2"],
      headerWordsFile: ["h3"],
      outputVar: "output",
      inputFields,
    };
    // Every branch both ways: the flags set, then cleared (and the optional values absent).
    const cleared: Record<string, unknown> = {
      ...variables,
      usesEnv: false,
      customHub: false,
      methodName: undefined,
      fsImports: "",
      importBase64: false,
      importJson: false,
      hasFile: false,
      queueViaRouter: false,
      videoOutput: false,
      audioOutput: false,
      headerWordsJson: [],
      provider: { ...value("provider"), obj: "fal-ai" },
      parameters: undefined,
      extraBody: undefined,
      billTo: undefined,
      // Multi-line texts, blank lines among them: what indent() changes.
      chatArgs: { obj: {}, pyKwargs: "a=1,\n\n    b=2,\r\n", tsEntries: "a: 1,\n\u2028b: 2," },
      headersJson: { obj: {}, py: "{\n    x\n}", ts: "{\n\n    x\n}", sh: "" },
    };
    for (const [key, source] of sources) {
      const [language, client, name] = key.split("/") as [never, never, string];
      for (const context of [variables, cleared]) {
        let expected: string;
        try {
          expected = new Template(source).render(context);
        } catch {
          // A value the template may only read when a flag says it is there.
          expect(() => loadTemplate(language, client, name)(context), key).toThrow();
          continue;
        }
        expect(loadTemplate(language, client, name)(context), key).toBe(expected);
      }
    }
  });

  it("compiles only what it knows how to, naming the template and line of anything else", () => {
    expect(compileTemplate("t", "a{{ b.c|indent(4) }}{% if d %}e{% else %}{{ f }}{% endif %}")).toContain(
      "indent(",
    );
    for (const source of [
      "{{ a|upper }}",
      "{% set x = 1 %}",
      "{{ a[0] }}",
      "{% for x in a if x %}{% endfor %}",
    ]) {
      expect(() => compileTemplate("py/x/y", `\n${source}`), source).toThrow(TemplateCompileError);
    }
    expect(() => compileTemplate("py/x/y", "\n{{ a + 1 }}")).toThrow("py/x/y: an expression of kind");
  });

  it("lists the texts each variable is read as", () => {
    const read = fieldsRead(readTemplateSources().values());
    expect(read.get("modelId")).toEqual(expect.arrayContaining(["py", "ts"]));
    expect(read.get("inputFields")).toContain("py");
    expect(read.get("chatArgs")).toEqual(expect.arrayContaining(["pyKwargs", "tsEntries"]));
    expect(fieldsRead(["{{ a.py }} {{ inputFields.q.sh }} {{ b.notAText }}"])).toEqual(
      new Map([
        ["a", ["py"]],
        ["inputFields", ["sh"]],
      ]),
    );
  });

  it("finds templates by language, client and name, and nothing else", () => {
    expect(hasTemplate("sh", "curl", "basic")).toBe(true);
    expect(findTemplate("sh", "curl", "basic")).toBe(TEMPLATES["sh/curl/basic"]);
    expect(hasTemplate("sh", "curl", "nope")).toBe(false);
    expect(findTemplate("sh", "curl", "toString")).toBeUndefined();
    expect(() => loadTemplate("sh", "curl", "nope")).toThrow("Template not found: sh/curl/nope");
  });
});

import { readFileSync } from "node:fs";
import { Template } from "@modelhub/jinja";
import { describe, expect, it } from "vitest";
import {
  fieldsRead,
  GENERATED_FILE,
  readTemplateSources,
  renderTemplatesModule,
} from "../scripts/build-templates.js";
import { FIELDS_READ, PRECOMPILED_TEMPLATES } from "./templates.generated.js";
import { findTemplate, hasTemplate, loadTemplate } from "./templates.js";

describe("templates.generated.ts", () => {
  it("is what `npm run templates` makes from templates/ (run it after editing a template)", () => {
    expect(readFileSync(GENERATED_FILE, "utf8")).toBe(renderTemplatesModule());
  });

  it("holds every template, and each precompiled one renders as its source does", () => {
    const sources = readTemplateSources();
    expect(Object.keys(PRECOMPILED_TEMPLATES)).toEqual([...sources.keys()]);
    // Every variable a template may test or print, with texts that show which one was printed.
    const value = (name: string) => ({ obj: name, py: `${name}.py`, ts: `${name}.ts`, sh: `${name}.sh` });
    const inputFields: Record<string, unknown> = {};
    for (const source of sources.values()) {
      for (const [, field] of source.matchAll(/inputFields\.(\w+)/g)) inputFields[field!] = value(field!);
    }
    const variables: Record<string, unknown> = {
      ...Object.fromEntries(Object.keys(FIELDS_READ).map((name) => [name, value(name)])),
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
    for (const [key, source] of sources) {
      const [language, client, name] = key.split("/") as [never, never, string];
      expect(loadTemplate(language, client, name).render(variables), key).toBe(
        new Template(source).render(variables),
      );
    }
  });

  it("lists the texts each variable is read as", () => {
    expect(FIELDS_READ.modelId).toMatchObject({ py: true, ts: true, tsEntries: false });
    expect(FIELDS_READ.inputFields?.py).toBe(true);
    expect(FIELDS_READ.chatArgs).toMatchObject({ pyKwargs: true, tsEntries: true, py: false });
    expect(fieldsRead(["{{ a.py }} {{ inputFields.q.sh }} {{ b.notAText }}"])).toEqual(
      new Map([
        ["a", ["py"]],
        ["inputFields", ["sh"]],
      ]),
    );
  });

  it("finds templates by language, client and name, and nothing else", () => {
    expect(hasTemplate("sh", "curl", "basic")).toBe(true);
    expect(findTemplate("sh", "curl", "basic")).toBe(findTemplate("sh", "curl", "basic"));
    expect(hasTemplate("sh", "curl", "nope")).toBe(false);
    expect(findTemplate("sh", "curl", "toString")).toBeUndefined();
    expect(() => loadTemplate("sh", "curl", "nope")).toThrow("Template not found: sh/curl/nope");
  });
});

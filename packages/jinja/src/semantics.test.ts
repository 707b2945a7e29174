import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { expectJinja2Error, thrownBy } from "./__fixtures__/jinja2-errors.js";
import { Template, TemplateRuntimeError, TemplateSyntaxError } from "./index.js";

/**
 * Small templates covering each feature (scripts/semantic_cases.py), with the output or error Python's
 * Jinja2 produced under transformers' configuration. Independent of the corpus.
 */

interface SemanticCase {
  template: string;
  context: Record<string, unknown>;
  output?: string;
  error?: { type: string; message: string; phase: "parse" | "render" };
}

const goldens: { cases: SemanticCase[] } = JSON.parse(
  readFileSync(new URL("./__fixtures__/semantics-goldens.json", import.meta.url), "utf8"),
);
const now = () => new Date(2024, 6, 26, 14, 30, 45);

describe("Jinja2 semantics", () => {
  it.each(goldens.cases.map((c, i) => [i, c.template, c] as const))("#%i %s", (_i, _t, golden) => {
    let template: Template;
    try {
      template = new Template(golden.template, { now });
    } catch (error) {
      if (golden.error?.phase !== "parse") throw error;
      expect(error).toBeInstanceOf(TemplateSyntaxError);
      return;
    }
    expect(golden.error?.phase, "Jinja2 rejected this template at parse time").not.toBe("parse");
    if (!golden.error) {
      expect(template.render(golden.context)).toBe(golden.output);
      return;
    }
    const thrown = thrownBy(() => template.render(golden.context));
    expectJinja2Error(thrown, golden.error);
    if (golden.error.type !== "TemplateError" && thrown instanceof TemplateRuntimeError) {
      expect(thrown.pythonType).toBe(golden.error.type);
      expect(thrown.reason).toBe(golden.error.message);
    }
  });
});

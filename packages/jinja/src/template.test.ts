import { describe, expect, it } from "vitest";
import { renderChatTemplate, Template, TemplateRaisedError, TemplateSyntaxError } from "./index.js";

describe("Template", () => {
  it("renders loops, conditionals and whitespace control like Jinja2 with trim/lstrip blocks", () => {
    const t = new Template(
      "{% for x in items %}\n  {{ loop.index }}:{{ x }}\n{% endfor %}\n{%- if done %} end{% endif %}",
    );
    expect(t.render({ items: ["a", "b"], done: true })).toBe("  1:a\n  2:b\n end");
  });

  it("parses once and renders many times with different contexts", () => {
    const t = new Template("{{ name | upper }}");
    expect(t.render({ name: "a" })).toBe("A");
    expect(t.render({ name: "b" })).toBe("B");
  });

  it("drops one trailing newline unless keepTrailingNewline is set (Jinja2's keep_trailing_newline)", () => {
    expect(new Template("x\n").render()).toBe("x");
    expect(new Template("x\n", { keepTrailingNewline: true }).render()).toBe("x\n");
  });

  it("reports syntax errors with location, excerpt and the open block", () => {
    try {
      new Template("line one\n{% for x in y %}{{ x }}");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateSyntaxError);
      const e = error as TemplateSyntaxError;
      expect(e.openBlock).toBe("for");
      expect(e.expected).toContain("endfor");
      expect(e.line).toBe(2);
    }
  });

  it("passes raise_exception messages through verbatim", () => {
    const t = new Template("{{ raise_exception('Only user and assistant roles are supported!') }}");
    expect(() => t.render()).toThrow(new TemplateRaisedError("Only user and assistant roles are supported!"));
  });

  it("renders chat templates with transformers' defaults (tools None, no generation prompt)", () => {
    const out = renderChatTemplate(
      "{{ bos_token }}{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{{ tools is none }}{{ add_generation_prompt }}",
      { messages: [{ role: "user", content: "hi" }], bos_token: "<s>" },
    );
    expect(out).toBe("<s>[user]hiTrueFalse");
  });
});

import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { precompileTemplate, Template } from "./index.js";
import { CompiledTemplate, TemplateError, TemplateRaisedError } from "./precompiled.js";

/** The source files esbuild puts into a bundle of `entry` (paths relative to packages/jinja). */
async function bundledFiles(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [new URL(entry, import.meta.url).pathname],
    absWorkingDir: new URL("..", import.meta.url).pathname,
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    metafile: true,
    outdir: "out",
    logLevel: "silent",
  });
  return Object.values(result.metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file),
  );
}

describe('the "./precompiled" entry point', () => {
  it("bundles neither the lexer nor the parser (the main entry does)", async () => {
    const precompiledFiles = await bundledFiles("./precompiled.ts");
    expect(precompiledFiles).toContain("src/compiled-template.ts");
    expect(precompiledFiles.filter((file) => /src\/(lexer|parser)\//.test(file))).toEqual([]);
    const mainFiles = await bundledFiles("./index.ts");
    expect(mainFiles).toContain("src/parser/parser.ts");
    expect(mainFiles).toContain("src/lexer/lexer.ts");
  });

  it("renders, and fails, exactly as Template from source does", () => {
    const source =
      "{% for m in messages %}{{ m.role | upper }}: {{ m.content }}{% if not loop.last %}\n{% endif %}{% endfor %}" +
      "{{ raise_exception('bad') if fail }}";
    const compiled = CompiledTemplate.fromPrecompiled(precompileTemplate(source));
    const fromSource = new Template(source);
    const context = {
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "é\t" },
      ],
    };
    expect(compiled.render(context)).toBe(fromSource.render(context));
    expect(compiled).not.toBeInstanceOf(Template);
    const failing = { ...context, fail: true };
    expect(() => fromSource.render(failing)).toThrow(new TemplateRaisedError("bad"));
    expect(() => compiled.render(failing)).toThrow(new TemplateRaisedError("bad"));
  });

  it("Template.fromPrecompiled gives a Template, CompiledTemplate.fromPrecompiled rejects foreign strings", () => {
    expect(Template.fromPrecompiled(precompileTemplate("{{ 1 + 1 }}"))).toBeInstanceOf(Template);
    expect(Template.fromPrecompiled(precompileTemplate("{{ 1 + 1 }}")).render()).toBe("2");
    expect(() => CompiledTemplate.fromPrecompiled("{{ 1 + 1 }}")).toThrow(TemplateError);
  });
});

describe("the Unicode name table of \\N{...} escapes", () => {
  it("is never bundled with the engine: only the ./unicode-names entry carries it", async () => {
    expect((await bundledFiles("./index.ts")).filter((file) => file.endsWith(".json"))).toEqual([]);
    expect(await bundledFiles("./unicode-names.ts")).toContain("src/lexer/unicode-names.json");
  });

  it("is installed by the entry, and the engine finds names through it", async () => {
    const { installUnicodeNames } = await import("./unicode-names.js");
    installUnicodeNames();
    expect(new Template('{{ "\\N{EM DASH}\\N{HANGUL SYLLABLE GAG}" }}').render()).toBe("—각");
  });
});

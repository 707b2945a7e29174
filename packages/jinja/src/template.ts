import type { Stmt } from "./ast/nodes.js";
import { FILTERS, TESTS } from "./builtins/registries.js";
import { CompiledTemplate, guarded, type TemplateOptions } from "./compiled-template.js";
import { TemplateError } from "./errors.js";
import { normalizeSource } from "./lexer/source.js";
import { parseTemplate } from "./parser/parser.js";
import { encodeAst } from "./precompile.js";

const NAME_REGISTRY = {
  hasFilter: (name: string) => Object.hasOwn(FILTERS, name),
  hasTest: (name: string) => Object.hasOwn(TESTS, name),
};

type ParseOptions = Pick<TemplateOptions, "trimBlocks" | "lstripBlocks" | "keepTrailingNewline">;

function parseSource(source: string, options: ParseOptions): Stmt[] {
  if (typeof source !== "string") throw new TemplateError("template source must be a string");
  return parseTemplate(normalizeSource(source, options.keepTrailingNewline), NAME_REGISTRY, {
    trimBlocks: options.trimBlocks ?? true,
    lstripBlocks: options.lstripBlocks ?? true,
  });
}

/**
 * Parses a template (same normalisation and syntax errors as `new Template`) into a versioned JSON string
 * that `Template.fromPrecompiled` compiles without lexing or parsing: for templates shipped with a program,
 * whose parse cost should not be paid at start-up. The parse options are applied here, once.
 */
export function precompileTemplate(source: string, options: ParseOptions = {}): string {
  return encodeAst(guarded(() => parseSource(source, options)));
}

/** A template parsed from source and compiled. Parse once, render many times; rendering is re-entrant. */
export class Template extends CompiledTemplate {
  constructor(source: string, options: TemplateOptions = {}) {
    super();
    this.compile(
      guarded(() => parseSource(source, options)),
      options,
    );
  }

  /** `CompiledTemplate.fromPrecompiled`, typed as a Template (it renders exactly like one from source). */
  static override fromPrecompiled(precompiled: string, options: TemplateOptions = {}): Template {
    // biome-ignore lint/complexity/noThisInStatic: the parent's factory builds an instance of this class.
    return super.fromPrecompiled(precompiled, options) as Template;
  }
}

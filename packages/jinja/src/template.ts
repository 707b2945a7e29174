import type { Stmt } from "./ast/nodes.js";
import { FILTERS } from "./builtins/filters.js";
import { createGlobals } from "./builtins/globals.js";
import { TESTS } from "./builtins/tests.js";
import { LimitExceededError, TemplateError, TemplateRuntimeError, TemplateSyntaxError } from "./errors.js";
import { normalizeSource } from "./lexer/source.js";
import { parseTemplate } from "./parser/parser.js";
import { decodeAst, encodeAst } from "./precompile.js";
import type { Registries } from "./runtime/compile-expr.js";
import { compileBody, type StmtFn } from "./runtime/compile-stmt.js";
import { declareAssigned, newFrame, newScope } from "./runtime/scope.js";
import { RenderState } from "./runtime/state.js";
import { PyCallable } from "./runtime/values.js";
import { DEFAULT_LIMITS, type Limits } from "./sandbox.js";

export interface TemplateOptions {
  /** Clock for `strftime_now` (tests pass a fixed date). Defaults to the current time. */
  now?: () => Date;
  /** Sandbox limits; unspecified ones keep their defaults. */
  limits?: Partial<Limits>;
  /** Extra callables the template may use, by name (the host's own, trusted functions). */
  functions?: Record<string, (...args: unknown[]) => unknown>;
  /** Jinja2's trim_blocks / lstrip_blocks (both on, as transformers configures chat templates). */
  trimBlocks?: boolean;
  lstripBlocks?: boolean;
  /** Jinja2's keep_trailing_newline (off: one trailing newline of the source is dropped). */
  keepTrailingNewline?: boolean;
}

const SHARED_GLOBALS = createGlobals();
const REGISTRIES: Registries = { filters: FILTERS, tests: TESTS };
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

/** Runs a parse or compile step: only TemplateErrors leave it (a stack overflow is a nesting error). */
function guarded<T>(step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof TemplateError) throw error;
    if (error instanceof RangeError) {
      throw new TemplateSyntaxError("template is nested too deeply", { line: 1, column: 1, excerpt: "" });
    }
    throw error;
  }
}

/**
 * Parses a template (same normalisation and syntax errors as `new Template`) into a versioned JSON string
 * that `Template.fromPrecompiled` compiles without lexing or parsing: for templates shipped with a program,
 * whose parse cost should not be paid at start-up. The parse options are applied here, once.
 */
export function precompileTemplate(source: string, options: ParseOptions = {}): string {
  return encodeAst(guarded(() => parseSource(source, options)));
}

/** A parsed, compiled template. Parse once, render many times; rendering is re-entrant. */
export class Template {
  private body!: StmtFn;
  private frameSize!: number;
  private globals!: Record<string, unknown>;
  private limits!: Limits;
  private now!: () => Date;

  constructor(source: string, options: TemplateOptions = {}) {
    this.init(
      guarded(() => parseSource(source, options)),
      options,
    );
  }

  /**
   * A template from `precompileTemplate`'s output, compiled without lexing or parsing. The parse options
   * (`trimBlocks`, `lstripBlocks`, `keepTrailingNewline`) were applied when precompiling and are ignored
   * here. Throws TemplateError for a string of another format version or not made by precompileTemplate.
   * Precompiled strings are trusted like code: produce them with precompileTemplate, do not take them
   * from untrusted sources (take the template source instead).
   */
  static fromPrecompiled(precompiled: string, options: TemplateOptions = {}): Template {
    const template: Template = Object.create(Template.prototype);
    try {
      template.init(decodeAst(precompiled), options);
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      throw new TemplateError(`malformed precompiled template: ${(error as Error).message}`);
    }
    return template;
  }

  private init(ast: Stmt[], options: TemplateOptions): void {
    const scope = newScope(null);
    this.body = guarded(() => {
      declareAssigned(ast, scope);
      return compileBody(ast, { reg: REGISTRIES, scope });
    });
    this.frameSize = scope.slots.size;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? (() => new Date());
    // The globals hold no per-render state (cyclers and joiners are created by calls), so one set is shared.
    this.globals = options.functions ? Object.assign(Object.create(null), SHARED_GLOBALS) : SHARED_GLOBALS;
    for (const [name, fn] of Object.entries(options.functions ?? {})) {
      this.globals[name] = new PyCallable(name, (args) => fn(...args));
    }
  }

  /** Renders with the given variables (plain JSON-like data; functions in it are not callable). */
  render(context: Record<string, unknown> = {}): string {
    const st = new RenderState(this.limits, this.now, context, this.globals);
    try {
      this.body(newFrame(null, this.frameSize), st);
      return st.out;
    } catch (error) {
      if (error instanceof TemplateRuntimeError) throw error.withLine(st.line);
      if (error instanceof TemplateError) throw error;
      if (error instanceof RangeError) {
        throw new LimitExceededError(
          `recursion or size limit of the JavaScript engine reached: ${error.message}`,
        ).withLine(st.line);
      }
      const message = error instanceof Error ? error.message : String(error);
      throw new TemplateRuntimeError(`internal error: ${message}`, "InternalError").withLine(st.line);
    }
  }
}

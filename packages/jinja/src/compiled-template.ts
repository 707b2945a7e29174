import type { Stmt } from "./ast/nodes.js";
import { createGlobals } from "./builtins/globals.js";
import { FILTERS, TESTS } from "./builtins/registries.js";
import type { Registries } from "./compile/compile-expr.js";
import { compileBody } from "./compile/compile-stmt.js";
import type { Executor } from "./compile/stmt-nodes.js";
import { LimitExceededError, TemplateError, TemplateRuntimeError, TemplateSyntaxError } from "./errors.js";
import { decodeAst } from "./precompile.js";
import { DEFAULT_LIMITS, type Limits } from "./runtime/limits.js";
import { declareAssigned, newFrame, newScope } from "./runtime/scope.js";
import { RenderState, withActiveRender } from "./runtime/state.js";
import { PyCallable } from "./runtime/values.js";

/*
 * The one compile-and-render core of every template. This module must not import the lexer or the parser:
 * the "./precompiled" entry point is built on it so that programs shipping precompiled templates neither
 * carry nor load them (template.ts adds parsing from source on top).
 */

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

/** Created on first compile, not at import: a program that only imports the package pays nothing. */
let sharedGlobals: Record<string, unknown> | undefined;
const REGISTRIES: Registries = { filters: FILTERS, tests: TESTS };

/*
 * Closures that outlive `compile` are made outside it: a closure made inside would keep compile's context,
 * and with it the whole AST, alive for as long as the template.
 */
const systemClock = () => new Date();

function hostFunction(name: string, fn: (...args: unknown[]) => unknown): PyCallable {
  return new PyCallable(name, (args) => fn(...args));
}

/** Runs a parse or compile step: only TemplateErrors leave it (a stack overflow is a nesting error). */
export function guarded<T>(step: () => T): T {
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
 * A compiled template, made from `precompileTemplate`'s output by `fromPrecompiled`. `Template` (from
 * source) is this class plus parsing. Render many times; rendering is re-entrant.
 */
export class CompiledTemplate {
  private body!: Executor;
  private frameSize!: number;
  private outerNames!: number;
  private globals!: Record<string, unknown>;
  private limits!: Limits;
  private now!: () => Date;

  /** Subclasses compile in their constructor with `compile`; others use `fromPrecompiled`. */
  protected constructor() {}

  /**
   * A template from `precompileTemplate`'s output, compiled without lexing or parsing. The parse options
   * (`trimBlocks`, `lstripBlocks`, `keepTrailingNewline`) were applied when precompiling and are ignored
   * here. Throws TemplateError for a string of another format version or not made by precompileTemplate.
   * Precompiled strings are trusted like code: produce them with precompileTemplate, do not take them
   * from untrusted sources (take the template source instead).
   */
  static fromPrecompiled(precompiled: string, options: TemplateOptions = {}): CompiledTemplate {
    // biome-ignore lint/complexity/noThisInStatic: called on a subclass (Template.fromPrecompiled), the result is of that subclass.
    const template: CompiledTemplate = Object.create(this.prototype);
    try {
      template.compile(decodeAst(precompiled), options);
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      throw new TemplateError(`malformed precompiled template: ${(error as Error).message}`);
    }
    return template;
  }

  protected compile(ast: Stmt[], options: TemplateOptions): void {
    const scope = newScope(null);
    this.body = guarded(() => {
      declareAssigned(ast, scope);
      return compileBody(ast, { reg: REGISTRIES, scope });
    });
    this.frameSize = scope.slots.size;
    this.outerNames = scope.outerNames.size;
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
    this.now = options.now ?? systemClock;
    sharedGlobals ??= createGlobals();
    // The globals hold no per-render state (cyclers and joiners are created by calls), so one set is shared.
    this.globals = options.functions ? Object.assign(Object.create(null), sharedGlobals) : sharedGlobals;
    for (const [name, fn] of Object.entries(options.functions ?? {}))
      this.globals[name] = hostFunction(name, fn);
  }

  /** Renders with the given variables (plain JSON-like data; functions in it are not callable). */
  render(context: Record<string, unknown> = {}): string {
    const st = new RenderState(this.limits, this.now, context, this.globals, this.outerNames);
    try {
      withActiveRender(st, () => this.body.run(newFrame(null, this.frameSize), st));
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

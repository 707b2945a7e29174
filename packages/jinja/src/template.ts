import type { Stmt } from "./ast/nodes.js";
import { FILTERS } from "./builtins/filters.js";
import { createGlobals } from "./builtins/globals.js";
import { TESTS } from "./builtins/tests.js";
import { LimitExceededError, TemplateError, TemplateRuntimeError, TemplateSyntaxError } from "./errors.js";
import { normalizeSource } from "./lexer/source.js";
import { parseTemplate } from "./parser/parser.js";
import type { Registries } from "./runtime/compile-expr.js";
import { compileBody, type StmtFn } from "./runtime/compile-stmt.js";
import { declareAssigned, newFrame, ScopeInfo } from "./runtime/scope.js";
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

/** A parsed, compiled template. Parse once, render many times; rendering is re-entrant. */
export class Template {
  private readonly body: StmtFn;
  private readonly frameSize: number = 0;
  private readonly globals: Record<string, unknown>;
  private readonly limits: Limits;
  private readonly now: () => Date;

  constructor(source: string, options: TemplateOptions = {}) {
    if (typeof source !== "string") throw new TemplateError("template source must be a string");
    let ast: Stmt[];
    try {
      ast = parseTemplate(normalizeSource(source, options.keepTrailingNewline), NAME_REGISTRY, {
        trimBlocks: options.trimBlocks ?? true,
        lstripBlocks: options.lstripBlocks ?? true,
      });
      const scope = new ScopeInfo(null);
      declareAssigned(ast, scope);
      this.body = compileBody(ast, { reg: REGISTRIES, scope });
      this.frameSize = scope.size;
    } catch (error) {
      if (error instanceof TemplateError) throw error;
      if (error instanceof RangeError) {
        throw new TemplateSyntaxError("template is nested too deeply", {
          line: 1,
          column: 1,
          excerpt: "",
        });
      }
      throw error;
    }
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

/** Base of every error the engine throws. Nothing else escapes `parse` or `render`. */
export class TemplateError extends Error {
  override name = "TemplateError";
}

export interface SyntaxErrorDetails {
  line: number;
  column: number;
  /** The offending source line with a caret under the column. */
  excerpt: string;
  /** What the parser expected at this point, if known (e.g. "'endfor' or 'else'"). */
  expected?: string;
  /** The innermost block still open when the error happened (e.g. "for"). */
  openBlock?: string;
}

/** The template source is malformed (lexing, parsing, unknown filter/test). Raised at construction. */
export class TemplateSyntaxError extends TemplateError {
  override name = "TemplateSyntaxError";
  readonly line: number;
  readonly column: number;
  readonly excerpt: string;
  readonly expected: string | undefined;
  readonly openBlock: string | undefined;
  /** The message without the location suffix. */
  readonly reason: string;

  constructor(reason: string, details: SyntaxErrorDetails) {
    super(`${reason} (line ${details.line}, column ${details.column})\n${details.excerpt}`);
    this.reason = reason;
    this.line = details.line;
    this.column = details.column;
    this.excerpt = details.excerpt;
    this.expected = details.expected;
    this.openBlock = details.openBlock;
  }
}

/** Something went wrong while rendering (type errors, undefined access, sandbox violations, limits). */
export class TemplateRuntimeError extends TemplateError {
  override name = "TemplateRuntimeError";
  /** 1-based line of the statement being rendered when the error happened (0 when unknown). */
  line = 0;
  /** The message without the location suffix. */
  readonly reason: string;
  /** The Python exception class Jinja2 would have raised (TypeError, UndefinedError, ...). */
  readonly pythonType: string;

  constructor(reason: string, pythonType = "TypeError") {
    super(reason);
    this.reason = reason;
    this.pythonType = pythonType;
  }

  /** Attaches the template line once, when the error leaves the renderer. */
  withLine(line: number): this {
    if (this.line === 0 && line > 0) {
      this.line = line;
      this.message = `${this.reason} (line ${line})`;
    }
    return this;
  }
}

/**
 * A runtime error Jinja2 raises under the same class name: `name` and `pythonType` are that name. (A literal,
 * not the class's own name, which a bundler may shorten.)
 */
// The return type is written out: inferred, the published declarations would spell out Error's static
// members in Node's types (`NodeJS.CallSite`), which a program without @types/node cannot read.
function jinjaRuntimeError(errorName: string): new (reason: string) => TemplateRuntimeError {
  return class extends TemplateRuntimeError {
    override name = errorName;
    constructor(reason: string) {
      super(reason, errorName);
    }
  };
}

/** An undefined value was used in a way Jinja2's default `Undefined` refuses (attribute, call, arithmetic). */
export class UndefinedError extends jinjaRuntimeError("UndefinedError") {}

/** The template tried to reach something outside the sandbox (JS internals, mutating methods). */
export class SecurityError extends jinjaRuntimeError("SecurityError") {}

/** A configured limit (output size, loop iterations, recursion depth) was exceeded. */
export class LimitExceededError extends jinjaRuntimeError("LimitExceededError") {}

/** Raised by the template itself through `raise_exception(message)`; `message` is the template's, verbatim. */
export class TemplateRaisedError extends TemplateError {
  override name = "TemplateRaisedError";
}

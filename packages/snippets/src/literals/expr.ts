/**
 * A piece of code that is not a literal (an environment lookup, a concatenation), already written in
 * each target language. Literal builders embed it verbatim; everything else they quote.
 */
export class CodeExpr {
  constructor(
    readonly py: string,
    readonly js: string,
    /** The expression as (part of) a shell word, e.g. `"Bearer ${HF_TOKEN}"`. */
    readonly sh: string,
  ) {}
}

/**
 * The "@modelhub/jinja/precompiled" entry point: renders templates made by `precompileTemplate` without
 * carrying or loading the lexer and parser (a smaller, faster-starting bundle). Renders exactly like
 * `Template`, which is the same class plus parsing from source.
 */
export { CompiledTemplate, type TemplateOptions } from "./compiled-template.js";
export {
  LimitExceededError,
  SecurityError,
  type SyntaxErrorDetails,
  TemplateError,
  TemplateRaisedError,
  TemplateRuntimeError,
  TemplateSyntaxError,
  UndefinedError,
} from "./errors.js";
export { DEFAULT_LIMITS, type Limits } from "./runtime/limits.js";

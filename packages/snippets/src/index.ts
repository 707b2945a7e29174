export { SnippetError, TemplateNotFoundError, UnsupportedFormatError } from "./errors.js";
export { getInferenceSnippets, getRouterProviderSnippets } from "./generate.js";
export { type CodeValue, codeValue, formatValue, type TextFormat } from "./literals/code-value.js";
export { jsValue } from "./literals/js.js";
export { pyValue } from "./literals/python.js";
export { HF_JS_METHODS, HF_PYTHON_METHODS } from "./methods.js";
// The public types and tables are all of types.ts.
export * from "./types.js";

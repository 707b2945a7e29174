export { SnippetError, TemplateNotFoundError, UnsupportedFormatError } from "./errors.js";
export { getInferenceSnippets } from "./generate.js";
export { type CodeValue, codeValue, formatValue, type TextFormat } from "./literals/code-value.js";
export { jsValue } from "./literals/js.js";
export { pyValue } from "./literals/python.js";
export { HF_JS_METHODS, HF_PYTHON_METHODS } from "./methods.js";
export {
  CLIENT_INSTALL,
  type InferenceSnippet,
  SNIPPET_CLIENTS,
  SNIPPET_LANGUAGES,
  type SnippetClient,
  type SnippetLanguage,
  type SnippetLogger,
  type SnippetOptions,
} from "./types.js";

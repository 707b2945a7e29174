/**
 * The one quoting module per target language, shared by the library snippets (this package) and the
 * inference snippets (@modelhub/snippets): every value that lands in generated code goes through here.
 */
/** The languages generated code is written in. */
export type CodeLanguage = "python" | "js" | "sh";

export { jsStringLiteral } from "./js.js";
export { isPythonIdentifier, pythonStringLiteral } from "./python.js";
export { shellWord, shellWordWithVariable } from "./shell.js";

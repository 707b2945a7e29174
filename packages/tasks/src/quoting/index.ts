/**
 * The one quoting module per target language, shared by the library snippets (this package) and the
 * inference snippets (@modelhub/snippets): every value that lands in generated code goes through here.
 */
export { jsStringLiteral } from "./js.js";
export { isPythonIdentifier, pythonStringLiteral } from "./python.js";
export { shellWord, shellWordWithVariable } from "./shell.js";

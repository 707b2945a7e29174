/**
 * The `@modelhub/jinja/unicode-names` entry point: the Unicode name table `\N{...}` escapes need, for
 * programs whose bundle does not carry the package's files (a browser). Under Node the engine reads the
 * table by itself the first time a template names a character; elsewhere, import this entry (lazily, so
 * that a bundler makes it a chunk of its own) and call installUnicodeNames() before parsing such a template.
 */
import { registerUnicodeNames, type UnicodeNameData } from "./lexer/unicode-names.js";
import data from "./lexer/unicode-names.json" with { type: "json" };

export function installUnicodeNames(): void {
  registerUnicodeNames(data as UnicodeNameData);
}

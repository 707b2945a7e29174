/** POSIX shell words. Every value a snippet shows in a shell command goes through here. */

/** A single-quoted shell word that expands to exactly `text`: nothing inside is interpreted. */
export function shWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

const DOUBLE_QUOTED_SPECIAL = /[\\"$`]/;

/** `text` escaped for a double-quoted shell word: only a variable reference added around it expands. */
function escapeDoubleQuoted(text: string): string {
  return DOUBLE_QUOTED_SPECIAL.test(text) ? text.replace(/[\\"$`]/g, "\\$&") : text;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A double-quoted shell word made of literal text and a reference to an environment variable, e.g.
 * `"Authorization: Bearer $HF_TOKEN"`. The literal parts are escaped so that only the variable expands.
 */
export function shWordWithVariable(prefix: string, variable: string, suffix = ""): string {
  if (!SHELL_NAME.test(variable)) throw new TypeError(`"${variable}" is not a shell variable name.`);
  return `"${escapeDoubleQuoted(prefix)}\${${variable}}${escapeDoubleQuoted(suffix)}"`;
}

/** A JSON document as one shell word (for `curl -d`), pretty-printed with 4-space indentation. */
export function shJson(value: unknown): string {
  return shWord(JSON.stringify(value, null, 4));
}

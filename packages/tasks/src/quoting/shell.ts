/** Words the shell passes through unchanged: no expansion, globbing, splitting or tilde. */
const SHELL_SAFE_WORD = /^[A-Za-z0-9_./:@%+,=-]+$/;

/**
 * A POSIX shell word whose value is exactly `value`: bare when it only holds inert characters, otherwise
 * single-quoted (inside single quotes nothing is special; a quote itself is written `'\''`).
 * A NUL character cannot be passed to a command at all and is the one value that does not survive.
 */
export function shellWord(value: string): string {
  if (SHELL_SAFE_WORD.test(value)) return value;
  return `'${value.replaceAll("'", "'\\''")}'`;
}

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DOUBLE_QUOTED_SPECIAL = /[\\"$`]/g;

/**
 * A double-quoted shell word of literal text around one environment variable, e.g.
 * `"Authorization: Bearer ${HF_TOKEN}"`: the literal parts are escaped so that only the variable expands.
 */
export function shellWordWithVariable(prefix: string, variable: string, suffix = ""): string {
  if (!SHELL_NAME.test(variable)) throw new TypeError(`"${variable}" is not a shell variable name.`);
  const literal = (text: string) => text.replace(DOUBLE_QUOTED_SPECIAL, "\\$&");
  return `"${literal(prefix)}\${${variable}}${literal(suffix)}"`;
}

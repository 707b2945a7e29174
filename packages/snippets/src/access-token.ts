import {
  jsStringLiteral,
  pythonStringLiteral,
  shellWord,
  shellWordWithVariable,
} from "@modelhub/tasks/quoting";
import { CodeExpr } from "./literals/expr.js";

/** Stands in for the token while the request is built; replaced by code that reads or holds the token. */
export const HUB_TOKEN_SENTINEL = "hf_MODELHUB_SNIPPET_TOKEN";
export const PROVIDER_TOKEN_SENTINEL = "MODELHUB_SNIPPET_PROVIDER_KEY";

/** How a snippet gets its token: from an environment variable (the default) or written inline. */
export type TokenSource = { kind: "env"; variable: string } | { kind: "inline"; token: string };

/** The token itself as an expression in each language. */
export function tokenExpr(source: TokenSource): CodeExpr {
  if (source.kind === "inline") {
    return new CodeExpr(
      pythonStringLiteral(source.token),
      jsStringLiteral(source.token),
      shellWord(source.token),
    );
  }
  const name = source.variable;
  return new CodeExpr(
    `os.environ[${pythonStringLiteral(name)}]`,
    `process.env.${name}`,
    shellWordWithVariable("", name),
  );
}

/** `prefix + expr + suffix` as code, with the literal parts quoted and left out when empty. */
function concatExpr(prefix: string, suffix: string, quote: (text: string) => string, expr: string): string {
  let code = prefix ? `${quote(prefix)} + ${expr}` : expr;
  if (suffix) code += ` + ${quote(suffix)}`;
  return code;
}

/**
 * A header value that contains the token (e.g. `Bearer <token>`, `Key <token>`) as an expression in each
 * language; `sentinel` marks where the token stands in `value`.
 */
export function headerValueExpr(value: string, sentinel: string, source: TokenSource): CodeExpr {
  const at = value.indexOf(sentinel);
  const prefix = value.slice(0, at);
  const suffix = value.slice(at + sentinel.length);
  if (source.kind === "inline") {
    const text = prefix + source.token + suffix;
    return new CodeExpr(pythonStringLiteral(text), jsStringLiteral(text), shellWord(text));
  }
  const token = tokenExpr(source);
  return new CodeExpr(
    concatExpr(prefix, suffix, pythonStringLiteral, token.py),
    concatExpr(prefix, suffix, jsStringLiteral, token.js),
    shellWordWithVariable(prefix, source.variable, suffix),
  );
}

/** A whole `Name: value` header as one shell word (for `curl -H`). */
export function headerWord(name: string, value: unknown, sentinel: string, source: TokenSource): string {
  const text = String(value);
  if (!text.includes(sentinel)) return shellWord(`${name}: ${text}`);
  const at = text.indexOf(sentinel);
  const prefix = `${name}: ${text.slice(0, at)}`;
  const suffix = text.slice(at + sentinel.length);
  if (source.kind === "inline") return shellWord(prefix + source.token + suffix);
  return shellWordWithVariable(prefix, source.variable, suffix);
}

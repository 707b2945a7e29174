import type { Stmt } from "./ast/nodes.js";
import { TemplateError } from "./errors.js";
import { PyFloat } from "./runtime/values.js";

/**
 * A precompiled template is JSON: `["modelhub-jinja/<format>", <statement list>]`. The format number changes
 * whenever the AST (ast/nodes.ts) changes shape, so a string precompiled by another engine version is
 * rejected instead of being compiled into something that renders differently.
 *
 * JSON has no sets, no integral floats (`1.0` must stay a float), no Infinity/NaN/-0, no ints past 2**53
 * (bigints) and no undefined, so
 * those values are written as one-key objects (`{"$float":"1"}`). The AST's own objects never have such
 * keys (user text only ever appears as string values), so the tags cannot be confused with template data.
 */
const FORMAT_VERSION = "1";
const HEADER = `["modelhub-jinja/${FORMAT_VERSION}",`;

function encodeValue(_key: string, value: unknown): unknown {
  if (value instanceof Set) return { $set: [...value] };
  if (value instanceof PyFloat) return { $float: String(value.value) };
  if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0))) {
    return { $number: String(value) };
  }
  if (value === undefined) return { $undefined: 1 };
  if (typeof value === "bigint") return { $int: value.toString() };
  return value;
}

function decodeValue(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const tagged = value as Record<string, unknown>;
  if ("$set" in tagged) return new Set(tagged.$set as unknown[]);
  if ("$float" in tagged) return new PyFloat(Number(tagged.$float));
  if ("$number" in tagged) return Number(tagged.$number);
  if ("$undefined" in tagged) return undefined;
  if ("$int" in tagged) return BigInt(tagged.$int as string);
  return value;
}

export function encodeAst(ast: Stmt[]): string {
  return `${HEADER}${JSON.stringify(ast, encodeValue)}]`;
}

/** The statement list of a string made by `encodeAst`; a TemplateError for anything else. */
export function decodeAst(precompiled: string): Stmt[] {
  if (typeof precompiled !== "string" || !precompiled.startsWith(HEADER)) {
    const found = typeof precompiled === "string" && /^\["modelhub-jinja\/([^"]*)"/.exec(precompiled);
    throw new TemplateError(
      found
        ? `precompiled template has format ${found[1]}, this engine reads format ${FORMAT_VERSION}: precompile it again with this version`
        : "not a precompiled template (expected the output of precompileTemplate)",
    );
  }
  let decoded: unknown;
  try {
    // Tagged values serialize as `{"$...`, which JSON text can only contain as an object key (quotes inside
    // strings are escaped): without one, the slow reviver has nothing to do (the usual case).
    decoded = precompiled.includes('{"$') ? JSON.parse(precompiled, decodeValue) : JSON.parse(precompiled);
  } catch (error) {
    throw new TemplateError(`precompiled template is not valid JSON: ${(error as Error).message}`);
  }
  const ast = (decoded as unknown[])[1];
  if (!Array.isArray(ast)) throw new TemplateError("precompiled template has no statement list");
  return ast as Stmt[];
}

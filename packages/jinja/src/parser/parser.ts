import type { Expr, MacroParam, Stmt, Target } from "../ast/nodes.js";
import { tokenize } from "../lexer/lexer.js";
import { startSource } from "../lexer/source.js";
import {
  current as cur,
  expectName,
  expectOp,
  expectType,
  fail,
  isOp,
  lineOf,
  next,
  openBlocks,
  skipName,
  skipOp,
  startCursor,
} from "./cursor.js";
import {
  macroUses,
  type NameRegistry,
  parseAssignTarget,
  parseExpression,
  parseFilter,
  parseTuple,
  startExpressions,
} from "./expressions.js";

export interface ParseOptions {
  trimBlocks: boolean;
  lstripBlocks: boolean;
}

/** Tags we are looking for to end the current block (for "Jinja was looking for ..." messages). */
const endTokenStack: string[][] = [];
let loopDepth = 0;

/** Parses a normalized template source into a statement list. Throws TemplateSyntaxError. */
export function parseTemplate(source: string, registry: NameRegistry, options: ParseOptions): Stmt[] {
  startSource(source);
  startCursor(tokenize(source, options));
  startExpressions(registry);
  endTokenStack.length = 0;
  loopDepth = 0;
  return subparse(null);
}

function line(): number {
  return lineOf(cur);
}

const KNOWN_TAGS = new Set([
  "for",
  "if",
  "set",
  "macro",
  "call",
  "filter",
  "with",
  "block",
  "print",
  "break",
  "continue",
  "generation",
]);

function subparse(endTokens: string[] | null): Stmt[] {
  const body: Stmt[] = [];
  if (endTokens) endTokenStack.push(endTokens);
  try {
    for (;;) {
      const t = cur;
      if (t.type === "eof") return body;
      if (t.type === "data") {
        body.push({ kind: "data", text: t.value, line: line() });
        next();
      } else if (t.type === "var_begin") {
        const at = line();
        next();
        body.push({ kind: "print", expr: parseTuple(), line: at });
        expectType("var_end", "end of print statement");
      } else if (t.type === "block_begin") {
        next();
        const tag = cur;
        if (endTokens && tag.type === "name" && endTokens.includes(tag.value)) return body;
        const stmt = parseStatement();
        if (stmt) body.push(stmt);
        expectType("block_end", "end of statement block");
      } else {
        fail(`unexpected ${t.type}`);
      }
    }
  } finally {
    if (endTokens) endTokenStack.pop();
  }
}

function parseStatements(endTokens: string[], dropNeedle = false): Stmt[] {
  skipOp(":");
  expectType("block_end", "end of statement block");
  const body = subparse(endTokens);
  if (cur.type === "eof") failEof(endTokens);
  if (dropNeedle) next();
  return body;
}

const expectedList = (tokens: string[]): string => tokens.map((t) => `'${t}'`).join(" or ");

/** "Jinja was looking for ... The innermost block that needs to be closed is ..." */
function lookingFor(endTokens: string[] | undefined): string {
  const open = openBlocks[openBlocks.length - 1];
  let message = endTokens ? ` Jinja was looking for the following tags: ${expectedList(endTokens)}.` : "";
  if (open) message += ` The innermost block that needs to be closed is '${open}'.`;
  return message;
}

function failEof(endTokens: string[]): never {
  fail(`Unexpected end of template.${lookingFor(endTokens)}`, expectedList(endTokens));
}

function failUnknownTag(name: string, pos: number): never {
  const expected = endTokenStack[endTokenStack.length - 1];
  fail(
    `Encountered unknown tag '${name}'.${lookingFor(expected)}`,
    expected ? expectedList(expected) : undefined,
    pos,
  );
}

function parseStatement(): Stmt | null {
  const t = cur;
  if (t.type !== "name") fail("tag name expected", "tag name");
  if (!KNOWN_TAGS.has(t.value)) failUnknownTag(t.value, t.pos);
  const at = line();
  openBlocks.push(t.value);
  try {
    next();
    switch (t.value) {
      case "for":
        return parseFor(at);
      case "if":
        return parseIf(at);
      case "set":
        return parseSet(at);
      case "macro":
        return parseMacro(at);
      case "call":
        return parseCallBlock(at);
      case "filter":
        return parseFilterBlock(at);
      case "with":
        return parseWith(at);
      case "print":
        return { kind: "print", expr: parseTuple(), line: at };
      case "block":
        return parseBlock(at);
      case "generation":
        return { kind: "scope", body: parseStatements(["endgeneration"], true), line: at };
      default:
        if (loopDepth === 0) fail(`'${t.value}' outside of a loop`, undefined, t.pos);
        return { kind: t.value as "break" | "continue", line: at };
    }
  } finally {
    openBlocks.pop();
  }
}

function parseFor(line: number): Stmt {
  const target = parseAssignTarget({ extraEnd: ["in"] });
  expectName("in");
  const iter = parseTuple({ withCondexpr: false, extraEnd: ["recursive"] });
  const filter = skipName("if") ? parseExpression() : null;
  const recursive = skipName("recursive");
  loopDepth++;
  const body = parseStatements(["endfor", "else"]);
  loopDepth--;
  const otherwise = next().value === "endfor" ? [] : parseStatements(["endfor"], true);
  return { kind: "for", target, iter, filter, recursive, body, otherwise, line };
}

function parseIf(line: number): Stmt {
  const test = parseTuple({ withCondexpr: false });
  const body = parseStatements(["elif", "else", "endif"]);
  const after = next();
  let otherwise: Stmt[] = [];
  if (after.value === "elif") otherwise = [parseIf(lineOf(after))];
  else if (after.value === "else") otherwise = parseStatements(["endif"], true);
  return { kind: "if", test, body, otherwise, line };
}

function parseSet(line: number): Stmt {
  const target = parseAssignTarget({ withNamespace: true });
  if (skipOp("=")) return { kind: "set", target, expr: parseTuple(), line };
  const filter = parseFilter(null);
  const body = parseStatements(["endset"], true);
  return { kind: "setblock", target, filter, body, line };
}

function parseSignature(): MacroParam[] {
  const params: MacroParam[] = [];
  expectOp("(");
  let sawDefault = false;
  while (!isOp(")")) {
    if (params.length > 0) expectOp(",");
    const name = expectName().value;
    let def: Expr | null = null;
    if (skipOp("=")) {
      def = parseExpression();
      sawDefault = true;
    } else if (sawDefault) fail("non-default argument follows default argument");
    params.push({ name, default: def });
  }
  expectOp(")");
  return params;
}

/** A macro or call-block body: loops outside do not count, and it records which special names it uses. */
function parseMacroBody(endTag: string): { body: Stmt[]; uses: Set<string> } {
  const saved = loopDepth;
  loopDepth = 0;
  const uses = new Set<string>();
  macroUses.push(uses);
  const body = parseStatements([endTag], true);
  macroUses.pop();
  loopDepth = saved;
  return { body, uses };
}

function parseMacro(line: number): Stmt {
  const name = expectName().value;
  const params = parseSignature();
  return { kind: "macro", name, params, line, ...parseMacroBody("endmacro") };
}

function parseCallBlock(line: number): Stmt {
  const params = isOp("(") ? parseSignature() : [];
  const pos = cur.pos;
  const call = parseExpression();
  if (call.kind !== "call") fail("expected call", undefined, pos);
  return { kind: "callblock", call, params, line, ...parseMacroBody("endcall") };
}

function parseFilterBlock(line: number): Stmt {
  const filter = parseFilter(null, true)!;
  const body = parseStatements(["endfilter"], true);
  return { kind: "filterblock", filter, body, line };
}

function parseWith(line: number): Stmt {
  const targets: Target[] = [];
  const values: Expr[] = [];
  while (cur.type !== "block_end") {
    if (targets.length > 0) expectOp(",");
    targets.push(parseAssignTarget());
    expectOp("=");
    values.push(parseExpression());
  }
  const body = parseStatements(["endwith"], true);
  return { kind: "with", targets, values, body, line };
}

function parseBlock(line: number): Stmt {
  const name = expectName().value;
  skipName("scoped");
  skipName("required");
  const body = parseStatements(["endblock"], true);
  if (cur.type === "name") expectName(name);
  return { kind: "scope", body, line };
}

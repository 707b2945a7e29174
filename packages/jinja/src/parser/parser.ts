import type { Expr, MacroParam, Stmt, Target } from "../ast/nodes.js";
import { tokenize } from "../lexer/lexer.js";
import { SourceMap } from "../lexer/source.js";
import { ExpressionParser, type NameRegistry } from "./expressions.js";
import { TokenStream } from "./token-stream.js";

export interface ParseOptions {
  trimBlocks: boolean;
  lstripBlocks: boolean;
}

/** Parses a normalized template source into a statement list. Throws TemplateSyntaxError. */
export function parseTemplate(source: string, registry: NameRegistry, options: ParseOptions): Stmt[] {
  const map = new SourceMap(source);
  const stream = new TokenStream(tokenize(source, map, options), map);
  return new StatementParser(stream, registry).parseTemplate();
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

class StatementParser extends ExpressionParser {
  /** Tags we are looking for to end the current block (for "Jinja was looking for ..." messages). */
  private endTokenStack: string[][] = [];
  private loopDepth = 0;

  parseTemplate(): Stmt[] {
    const body = this.subparse(null);
    return body;
  }

  private line(): number {
    return this.stream.lineOf(this.stream.current);
  }

  private subparse(endTokens: string[] | null): Stmt[] {
    const s = this.stream;
    const body: Stmt[] = [];
    if (endTokens) this.endTokenStack.push(endTokens);
    try {
      for (;;) {
        const t = s.current;
        if (t.type === "eof") return body;
        if (t.type === "data") {
          body.push({ kind: "data", text: t.value, line: this.line() });
          s.next();
        } else if (t.type === "var_begin") {
          const line = this.line();
          s.next();
          body.push({ kind: "print", expr: this.parseTuple(), line });
          s.expectType("var_end", "end of print statement");
        } else if (t.type === "block_begin") {
          s.next();
          const tag = s.current;
          if (endTokens && tag.type === "name" && endTokens.includes(tag.value)) return body;
          const stmt = this.parseStatement();
          if (stmt) body.push(stmt);
          s.expectType("block_end", "end of statement block");
        } else {
          s.fail(`unexpected ${t.type}`);
        }
      }
    } finally {
      if (endTokens) this.endTokenStack.pop();
    }
  }

  private parseStatements(endTokens: string[], dropNeedle = false): Stmt[] {
    const s = this.stream;
    s.skipOp(":");
    s.expectType("block_end", "end of statement block");
    const body = this.subparse(endTokens);
    if (s.current.type === "eof") this.failEof(endTokens);
    if (dropNeedle) s.next();
    return body;
  }

  private expectedList(tokens: string[]): string {
    return tokens.map((t) => `'${t}'`).join(" or ");
  }

  private failEof(endTokens: string[]): never {
    const open = this.stream.openBlocks[this.stream.openBlocks.length - 1];
    let message = "Unexpected end of template.";
    message += ` Jinja was looking for the following tags: ${this.expectedList(endTokens)}.`;
    if (open) message += ` The innermost block that needs to be closed is '${open}'.`;
    this.stream.fail(message, this.expectedList(endTokens));
  }

  private failUnknownTag(name: string, pos: number): never {
    let message = `Encountered unknown tag '${name}'.`;
    const expected = this.endTokenStack[this.endTokenStack.length - 1];
    if (expected) message += ` Jinja was looking for the following tags: ${this.expectedList(expected)}.`;
    const open = this.stream.openBlocks[this.stream.openBlocks.length - 1];
    if (open) message += ` The innermost block that needs to be closed is '${open}'.`;
    this.stream.fail(message, expected ? this.expectedList(expected) : undefined, pos);
  }

  private parseStatement(): Stmt | null {
    const s = this.stream;
    const t = s.current;
    if (t.type !== "name") s.fail("tag name expected", "tag name");
    if (!KNOWN_TAGS.has(t.value)) this.failUnknownTag(t.value, t.pos);
    const line = this.line();
    s.openBlocks.push(t.value);
    try {
      s.next();
      switch (t.value) {
        case "for":
          return this.parseFor(line);
        case "if":
          return this.parseIf(line);
        case "set":
          return this.parseSet(line);
        case "macro":
          return this.parseMacro(line);
        case "call":
          return this.parseCallBlock(line);
        case "filter":
          return this.parseFilterBlock(line);
        case "with":
          return this.parseWith(line);
        case "print":
          return { kind: "print", expr: this.parseTuple(), line };
        case "block":
          return this.parseBlock(line);
        case "generation":
          return { kind: "scope", body: this.parseStatements(["endgeneration"], true), line };
        default:
          if (this.loopDepth === 0) s.fail(`'${t.value}' outside of a loop`, undefined, t.pos);
          return { kind: t.value as "break" | "continue", line };
      }
    } finally {
      s.openBlocks.pop();
    }
  }

  private parseFor(line: number): Stmt {
    const s = this.stream;
    const target = this.parseAssignTarget({ extraEnd: ["in"] });
    s.expectName("in");
    const iter = this.parseTuple({ withCondexpr: false, extraEnd: ["recursive"] });
    const filter = s.skipName("if") ? this.parseExpression() : null;
    const recursive = s.skipName("recursive");
    this.loopDepth++;
    const body = this.parseStatements(["endfor", "else"]);
    this.loopDepth--;
    const otherwise = s.next().value === "endfor" ? [] : this.parseStatements(["endfor"], true);
    return { kind: "for", target, iter, filter, recursive, body, otherwise, line };
  }

  private parseIf(line: number): Stmt {
    const s = this.stream;
    const test = this.parseTuple({ withCondexpr: false });
    const body = this.parseStatements(["elif", "else", "endif"]);
    const next = s.next();
    let otherwise: Stmt[] = [];
    if (next.value === "elif") {
      const elifLine = this.stream.lineOf(next);
      otherwise = [this.parseIf(elifLine)];
      return { kind: "if", test, body, otherwise, line };
    }
    if (next.value === "else") otherwise = this.parseStatements(["endif"], true);
    return { kind: "if", test, body, otherwise, line };
  }

  private parseSet(line: number): Stmt {
    const s = this.stream;
    const target = this.parseAssignTarget({ withNamespace: true });
    if (s.skipOp("=")) return { kind: "set", target, expr: this.parseTuple(), line };
    const filter = this.parseFilter(null);
    const body = this.parseStatements(["endset"], true);
    return { kind: "setblock", target, filter, body, line };
  }

  private parseSignature(): MacroParam[] {
    const s = this.stream;
    const params: MacroParam[] = [];
    s.expectOp("(");
    let sawDefault = false;
    while (!s.isOp(")")) {
      if (params.length > 0) s.expectOp(",");
      const name = s.expectName().value;
      let def: Expr | null = null;
      if (s.skipOp("=")) {
        def = this.parseExpression();
        sawDefault = true;
      } else if (sawDefault) s.fail("non-default argument follows default argument");
      params.push({ name, default: def });
    }
    s.expectOp(")");
    return params;
  }

  private parseMacro(line: number): Stmt {
    const name = this.stream.expectName().value;
    const params = this.parseSignature();
    const saved = this.loopDepth;
    this.loopDepth = 0;
    const uses = new Set<string>();
    this.macroUses.push(uses);
    const body = this.parseStatements(["endmacro"], true);
    this.macroUses.pop();
    this.loopDepth = saved;
    return { kind: "macro", name, params, body, line, uses };
  }

  private parseCallBlock(line: number): Stmt {
    const s = this.stream;
    const params = s.isOp("(") ? this.parseSignature() : [];
    const pos = s.current.pos;
    const call = this.parseExpression();
    if (call.kind !== "call") s.fail("expected call", undefined, pos);
    const saved = this.loopDepth;
    this.loopDepth = 0;
    const uses = new Set<string>();
    this.macroUses.push(uses);
    const body = this.parseStatements(["endcall"], true);
    this.macroUses.pop();
    this.loopDepth = saved;
    return { kind: "callblock", call, params, body, line, uses };
  }

  private parseFilterBlock(line: number): Stmt {
    const filter = this.parseFilter(null, true)!;
    const body = this.parseStatements(["endfilter"], true);
    return { kind: "filterblock", filter, body, line };
  }

  private parseWith(line: number): Stmt {
    const s = this.stream;
    const targets: Target[] = [];
    const values: Expr[] = [];
    while (s.current.type !== "block_end") {
      if (targets.length > 0) s.expectOp(",");
      targets.push(this.parseAssignTarget());
      s.expectOp("=");
      values.push(this.parseExpression());
    }
    const body = this.parseStatements(["endwith"], true);
    return { kind: "with", targets, values, body, line };
  }

  private parseBlock(line: number): Stmt {
    const s = this.stream;
    const name = s.expectName().value;
    s.skipName("scoped");
    s.skipName("required");
    const body = this.parseStatements(["endblock"], true);
    if (s.current.type === "name") s.expectName(name);
    return { kind: "scope", body, line };
  }
}

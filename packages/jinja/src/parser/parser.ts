import type { Expr, MacroParam, Stmt, Target } from "../ast/nodes.js";
import { tokenize } from "../lexer/lexer.js";
import { SourceText } from "../lexer/source.js";
import type { Token } from "../lexer/token.js";
import { ExpressionParser, type NameRegistry } from "./expressions.js";

export interface ParseOptions {
  trimBlocks: boolean;
  lstripBlocks: boolean;
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

const expectedList = (tokens: string[]): string => tokens.map((t) => `'${t}'`).join(" or ");

/** Parses a normalized template source into a statement list. Throws TemplateSyntaxError. */
export function parseTemplate(source: string, registry: NameRegistry, options: ParseOptions): Stmt[] {
  const text = new SourceText(source);
  return new TemplateParser(tokenize(text, options), text, registry).parseAll();
}

/** Statements, mirroring jinja2.parser.Parser; expressions come from ExpressionParser. */
class TemplateParser extends ExpressionParser {
  /** Tags we are looking for to end the current block (for "Jinja was looking for ..." messages). */
  private readonly endTokenStack: string[][] = [];
  private loopDepth = 0;

  constructor(tokens: Token[], source: SourceText, registry: NameRegistry) {
    super(tokens, source, registry);
  }

  parseAll(): Stmt[] {
    return this.subparse(null);
  }

  line(): number {
    return this.lineOf(this.current);
  }

  subparse(endTokens: string[] | null): Stmt[] {
    const body: Stmt[] = [];
    if (endTokens) this.endTokenStack.push(endTokens);
    try {
      for (;;) {
        const t = this.current;
        if (t.type === "eof") return body;
        if (t.type === "data") {
          body.push({ kind: "data", text: t.value, line: this.line() });
          this.next();
        } else if (t.type === "var_begin") {
          const at = this.line();
          this.next();
          body.push({ kind: "print", expr: this.parseTuple(), line: at });
          this.expectType("var_end", "end of print statement");
        } else if (t.type === "block_begin") {
          this.next();
          const tag = this.current;
          if (endTokens && tag.type === "name" && endTokens.includes(tag.value)) return body;
          const stmt = this.parseStatement();
          if (stmt) body.push(stmt);
          this.expectType("block_end", "end of statement block");
        } else {
          this.fail(`unexpected ${t.type}`);
        }
      }
    } finally {
      if (endTokens) this.endTokenStack.pop();
    }
  }

  parseStatements(endTokens: string[], dropNeedle = false): Stmt[] {
    this.skipOp(":");
    this.expectType("block_end", "end of statement block");
    const body = this.subparse(endTokens);
    if (this.current.type === "eof") this.failEof(endTokens);
    if (dropNeedle) this.next();
    return body;
  }

  /** "Jinja was looking for ... The innermost block that needs to be closed is ..." */
  lookingFor(endTokens: string[] | undefined): string {
    const open = this.openBlocks[this.openBlocks.length - 1];
    let message = endTokens ? ` Jinja was looking for the following tags: ${expectedList(endTokens)}.` : "";
    if (open) message += ` The innermost block that needs to be closed is '${open}'.`;
    return message;
  }

  failEof(endTokens: string[]): never {
    this.fail(`Unexpected end of template.${this.lookingFor(endTokens)}`, expectedList(endTokens));
  }

  failUnknownTag(name: string, pos: number): never {
    const expected = this.endTokenStack[this.endTokenStack.length - 1];
    this.fail(
      `Encountered unknown tag '${name}'.${this.lookingFor(expected)}`,
      expected ? expectedList(expected) : undefined,
      pos,
    );
  }

  parseStatement(): Stmt | null {
    const t = this.current;
    if (t.type !== "name") this.fail("tag name expected", "tag name");
    if (!KNOWN_TAGS.has(t.value)) this.failUnknownTag(t.value, t.pos);
    const at = this.line();
    this.openBlocks.push(t.value);
    try {
      this.next();
      switch (t.value) {
        case "for":
          return this.parseFor(at);
        case "if":
          return this.parseIf(at);
        case "set":
          return this.parseSet(at);
        case "macro":
          return this.parseMacro(at);
        case "call":
          return this.parseCallBlock(at);
        case "filter":
          return this.parseFilterBlock(at);
        case "with":
          return this.parseWith(at);
        case "print":
          return { kind: "print", expr: this.parseTuple(), line: at };
        case "block":
          return this.parseBlock(at);
        case "generation":
          return { kind: "scope", body: this.parseStatements(["endgeneration"], true), line: at };
        default:
          if (this.loopDepth === 0) this.fail(`'${t.value}' outside of a loop`, undefined, t.pos);
          return { kind: t.value as "break" | "continue", line: at };
      }
    } finally {
      this.openBlocks.pop();
    }
  }

  parseFor(line: number): Stmt {
    const target = this.parseAssignTarget({ extraEnd: ["in"] });
    this.expectName("in");
    const iter = this.parseTuple({ withCondexpr: false, extraEnd: ["recursive"] });
    const filter = this.skipName("if") ? this.parseExpression() : null;
    const recursive = this.skipName("recursive");
    this.loopDepth++;
    const body = this.parseStatements(["endfor", "else"]);
    this.loopDepth--;
    const otherwise = this.next().value === "endfor" ? [] : this.parseStatements(["endfor"], true);
    return { kind: "for", target, iter, filter, recursive, body, otherwise, line };
  }

  parseIf(line: number): Stmt {
    const test = this.parseTuple({ withCondexpr: false });
    const body = this.parseStatements(["elif", "else", "endif"]);
    const after = this.next();
    let otherwise: Stmt[] = [];
    if (after.value === "elif") otherwise = [this.parseIf(this.lineOf(after))];
    else if (after.value === "else") otherwise = this.parseStatements(["endif"], true);
    return { kind: "if", test, body, otherwise, line };
  }

  parseSet(line: number): Stmt {
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skipOp("=")) return { kind: "set", target, expr: this.parseTuple(), line };
    const filter = this.parseFilter(null);
    const body = this.parseStatements(["endset"], true);
    return { kind: "setblock", target, filter, body, line };
  }

  parseSignature(): MacroParam[] {
    const params: MacroParam[] = [];
    this.expectOp("(");
    let sawDefault = false;
    while (!this.isOp(")")) {
      if (params.length > 0) this.expectOp(",");
      const name = this.expectName().value;
      let def: Expr | null = null;
      if (this.skipOp("=")) {
        def = this.parseExpression();
        sawDefault = true;
      } else if (sawDefault) this.fail("non-default argument follows default argument");
      params.push({ name, default: def });
    }
    this.expectOp(")");
    return params;
  }

  /** A macro or call-block body: loops outside do not count, and it records which special names it uses. */
  parseMacroBody(endTag: string): { body: Stmt[]; uses: Set<string> } {
    const saved = this.loopDepth;
    this.loopDepth = 0;
    const uses = new Set<string>();
    this.macroUses.push(uses);
    const body = this.parseStatements([endTag], true);
    this.macroUses.pop();
    this.loopDepth = saved;
    return { body, uses };
  }

  parseMacro(line: number): Stmt {
    const name = this.expectName().value;
    const params = this.parseSignature();
    return { kind: "macro", name, params, line, ...this.parseMacroBody("endmacro") };
  }

  parseCallBlock(line: number): Stmt {
    const params = this.isOp("(") ? this.parseSignature() : [];
    const pos = this.current.pos;
    const call = this.parseExpression();
    if (call.kind !== "call") this.fail("expected call", undefined, pos);
    return { kind: "callblock", call, params, line, ...this.parseMacroBody("endcall") };
  }

  parseFilterBlock(line: number): Stmt {
    const filter = this.parseFilter(null, true)!;
    const body = this.parseStatements(["endfilter"], true);
    return { kind: "filterblock", filter, body, line };
  }

  parseWith(line: number): Stmt {
    const targets: Target[] = [];
    const values: Expr[] = [];
    while (this.current.type !== "block_end") {
      if (targets.length > 0) this.expectOp(",");
      targets.push(this.parseAssignTarget());
      this.expectOp("=");
      values.push(this.parseExpression());
    }
    const body = this.parseStatements(["endwith"], true);
    return { kind: "with", targets, values, body, line };
  }

  parseBlock(line: number): Stmt {
    const name = this.expectName().value;
    this.skipName("scoped");
    this.skipName("required");
    const body = this.parseStatements(["endblock"], true);
    if (this.current.type === "name") this.expectName(name);
    return { kind: "scope", body, line };
  }
}

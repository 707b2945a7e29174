/** Expression and statement nodes produced by the parser and compiled by runtime/compile-*.ts. */

export type Expr =
  | { kind: "const"; value: unknown }
  | { kind: "name"; name: string }
  /** The value a filter chain is applied to (filter blocks, `{% set x | f %}`). */
  | { kind: "input" }
  | { kind: "list"; items: Expr[] }
  | { kind: "tuple"; items: Expr[] }
  | { kind: "dict"; pairs: [Expr, Expr][] }
  | { kind: "getattr"; obj: Expr; attr: string }
  | { kind: "getitem"; obj: Expr; key: Expr }
  | { kind: "slice"; obj: Expr; start: Expr | null; stop: Expr | null; step: Expr | null }
  | ({ kind: "call"; callee: Expr } & CallArgs)
  | ({ kind: "filter"; name: string; node: Expr | null } & CallArgs)
  | ({ kind: "test"; name: string; node: Expr } & CallArgs)
  | { kind: "binop"; op: BinaryOperator; left: Expr; right: Expr }
  | { kind: "unary"; op: "not" | "-" | "+"; node: Expr }
  | { kind: "and" | "or"; left: Expr; right: Expr }
  | { kind: "compare"; first: Expr; ops: [CompareOperator, Expr][] }
  | { kind: "cond"; test: Expr; whenTrue: Expr; otherwise: Expr | null };

export type BinaryOperator = "+" | "-" | "*" | "/" | "//" | "%" | "**" | "~";
export type CompareOperator = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "notin";

export interface CallArgs {
  args: Expr[];
  kwargs: [string, Expr][];
  dynArgs: Expr | null;
  dynKwargs: Expr | null;
}

export type Target =
  | { kind: "name"; name: string }
  | { kind: "tuple"; items: Target[] }
  | { kind: "nsref"; name: string; attr: string };

/** Which of `varargs`, `kwargs`, `caller` a macro body mentions (they change how it takes arguments). */
export type MacroSpecialNames = Set<string>;

export interface MacroParam {
  name: string;
  default: Expr | null;
}

export type Stmt = { line: number } & (
  | { kind: "data"; text: string }
  | { kind: "print"; expr: Expr }
  | { kind: "if"; test: Expr; body: Stmt[]; otherwise: Stmt[] }
  | {
      kind: "for";
      target: Target;
      iter: Expr;
      filter: Expr | null;
      recursive: boolean;
      body: Stmt[];
      otherwise: Stmt[];
    }
  | { kind: "set"; target: Target; expr: Expr }
  | { kind: "setblock"; target: Target; filter: Expr | null; body: Stmt[] }
  | { kind: "macro"; name: string; params: MacroParam[]; body: Stmt[]; uses: MacroSpecialNames }
  | { kind: "callblock"; call: Expr; params: MacroParam[]; body: Stmt[]; uses: MacroSpecialNames }
  | { kind: "filterblock"; filter: Expr; body: Stmt[] }
  | { kind: "with"; targets: Target[]; values: Expr[]; body: Stmt[] }
  | { kind: "scope"; body: Stmt[] }
  | { kind: "break" }
  | { kind: "continue" }
);

/**
 * Compiles a snippet template into the source of a JavaScript function, at build time, so the generator
 * neither parses templates nor carries a template engine at run time. The template is parsed by
 * @modelhub/jinja (its precompiled form: the parsed statements as JSON, whitespace control applied), and
 * the few constructs snippet templates use become code calling src/template-runtime.ts: text, `{{ a }}`,
 * `{{ a.b }}`, `{{ a.b | indent(n) }}`, `{% if %}` / `{% else %}` on a value or `a.b == "text"`, and
 * `{% for x in a %}`. Anything else fails the build with the template's name and line, so a template
 * that needs more gets it added here (and compared with the engine in templates.test.ts) first.
 */
import { precompileTemplate } from "@modelhub/jinja";

/** The parsed template's nodes this compiler reads (the shape of @modelhub/jinja's ast/nodes.ts). */
type Node = { kind: string; line?: number } & Record<string, unknown>;

export class TemplateCompileError extends Error {
  constructor(template: string, node: Node, what: string) {
    super(
      `${template}: ${what} (line ${node.line ?? "?"}) is not compiled: snippet templates use text, ` +
        "`{{ a.b }}`, `indent(n)`, `if`/`else` and `for` over a variable (scripts/compile-template.ts)",
    );
    this.name = "TemplateCompileError";
  }
}

class FunctionWriter {
  private readonly lines: string[] = [];
  /** Text pieces not written yet: consecutive ones become one concatenation. */
  private pending: string[] = [];
  /** Loop variables in scope: template name -> JavaScript local. */
  private readonly locals = new Map<string, string>();
  private nextLocal = 0;

  constructor(private readonly template: string) {}

  source(statements: Node[]): string {
    for (const node of statements) this.statement(node, "  ");
    // A template without control flow is one expression.
    if (this.lines.length === 0) return `(c) =>\n  ${this.pending.join(" +\n  ") || '""'}`;
    this.flush("  ");
    return `(c) => {\n  let o = "";\n${this.lines.join("\n")}\n  return o;\n}`;
  }

  private block(statements: Node[], pad: string): void {
    for (const node of statements) this.statement(node, pad);
    this.flush(pad);
  }

  private flush(pad: string): void {
    if (this.pending.length === 0) return;
    this.lines.push(`${pad}o += ${this.pending.join(` +\n${pad}  `)};`);
    this.pending = [];
  }

  private statement(node: Node, pad: string): void {
    switch (node.kind) {
      case "data":
        this.pending.push(JSON.stringify(node.text));
        return;
      case "print":
        this.pending.push(this.printed(node.expr as Node));
        return;
      case "if": {
        this.flush(pad);
        this.lines.push(`${pad}if (${this.condition(node.test as Node)}) {`);
        this.block(node.body as Node[], `${pad}  `);
        const otherwise = node.otherwise as Node[];
        if (otherwise.length > 0) {
          this.lines.push(`${pad}} else {`);
          this.block(otherwise, `${pad}  `);
        }
        this.lines.push(`${pad}}`);
        return;
      }
      case "for": {
        this.flush(pad);
        const target = node.target as Node;
        const otherwise = node.otherwise as Node[];
        if (target.kind !== "name" || node.filter !== null || node.recursive || otherwise.length > 0) {
          throw new TemplateCompileError(this.template, node, "a for loop other than `for x in a`");
        }
        const local = `v${this.nextLocal++}`;
        const iterable = this.expression(node.iter as Node);
        this.lines.push(
          `${pad}for (const ${local} of items(${iterable}, ${JSON.stringify(describe(node.iter as Node))})) {`,
        );
        const name = target.name as string;
        const shadowed = this.locals.get(name);
        this.locals.set(name, local);
        this.block(node.body as Node[], `${pad}  `);
        if (shadowed === undefined) this.locals.delete(name);
        else this.locals.set(name, shadowed);
        this.lines.push(`${pad}}`);
        return;
      }
      default:
        throw new TemplateCompileError(this.template, node, `a "${node.kind}" statement`);
    }
  }

  /** A printed expression: `indent(n)` on a value, or a value. */
  private printed(expr: Node): string {
    if (expr.kind === "filter") {
      const args = expr.args as Node[];
      const simple =
        expr.name === "indent" &&
        args.length === 1 &&
        args[0]!.kind === "const" &&
        Number.isInteger(args[0]!.value) &&
        (expr.kwargs as unknown[]).length === 0 &&
        expr.dynArgs === null &&
        expr.dynKwargs === null &&
        expr.node !== null;
      if (!simple) throw new TemplateCompileError(this.template, expr, `the filter "${expr.name}"`);
      return `indent(${this.expression(expr.node as Node)}, ${args[0]!.value})`;
    }
    return `show(${this.expression(expr)})`;
  }

  private condition(expr: Node): string {
    if (expr.kind === "compare") {
      const ops = expr.ops as [string, Node][];
      const [op, right] = ops[0] ?? [];
      if (ops.length !== 1 || op !== "==" || right?.kind !== "const" || typeof right.value !== "string") {
        throw new TemplateCompileError(this.template, expr, 'a comparison other than `a.b == "text"`');
      }
      return `${this.expression(expr.first as Node)} === ${JSON.stringify(right.value)}`;
    }
    return `truthy(${this.expression(expr)})`;
  }

  /** A variable, a loop variable, or a field of one. */
  private expression(expr: Node): string {
    if (expr.kind === "name") {
      const name = expr.name as string;
      return this.locals.get(name) ?? `c[${JSON.stringify(name)}]`;
    }
    if (expr.kind === "getattr") {
      const obj = expr.obj as Node;
      const name = expr.attr as string;
      // A plain property read where it means the same (any name but what every object inherits: a
      // missing field is undefined either way); `defined` keeps Jinja2's error for a field of undefined.
      if (/^[A-Za-z_$][\w$]*$/.test(name) && !(name in Object.prototype)) {
        return `defined(${this.expression(obj)}, ${JSON.stringify(describe(obj))}).${name}`;
      }
      return `attr(${this.expression(obj)}, ${JSON.stringify(name)}, ${JSON.stringify(describe(expr))})`;
    }
    throw new TemplateCompileError(this.template, expr, `an expression of kind "${expr.kind}"`);
  }
}

/** `a.b.c` as written in the template, for error messages. */
function describe(expr: Node): string {
  if (expr.kind === "name") return expr.name as string;
  if (expr.kind === "getattr") return `${describe(expr.obj as Node)}.${expr.attr as string}`;
  return expr.kind;
}

/** The parsed statements of a template source (@modelhub/jinja's precompiled JSON, read back). */
function parseTemplate(source: string): Node[] {
  const [, statements] = JSON.parse(precompileTemplate(source)) as [string, Node[]];
  return statements;
}

/** The source of a function `(c) => string` that renders `source` as @modelhub/jinja does. */
export function compileTemplate(name: string, source: string): string {
  return new FunctionWriter(name).source(parseTemplate(source));
}

import { HubError } from "../errors.js";

/**
 * Checks of caller-written SQL (`/filter`'s `where` and `orderby`, the SQL console) on DuckDB's own parse tree
 * (`json_serialize_sql`), before anything runs. What runs afterwards is DuckDB's rendering of the checked tree
 * (`json_deserialize_sql`), never the caller's text: no difference between what was checked and what runs.
 * The query instance's lockdown (no file outside the Parquet cache, no settings, no extensions) stays behind
 * this as a second wall; these checks keep a caller to the one dataset's splits within that cache.
 */

/** A parameter the caller wrote is not acceptable SQL here: 422 as the public viewer's InvalidParameter. */
export class InvalidSqlParameterError extends HubError {
  constructor(message: string) {
    super(422, "InvalidParameter", message);
  }
}

/** A console query that is not a read-only query over the dataset's splits. */
export class RefusedQueryError extends HubError {
  constructor(message: string) {
    super(400, "RefusedQuery", message);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Node = { [key: string]: Json };

/** DuckDB's serialized parse tree of a text: its statements, or its parser's error. */
export type ParsedSql =
  | { error: false; statements: { node: Node }[] }
  | { error: true; error_type?: string; error_message: string };

/** The public viewer refuses these in `where` outright (statement separators and comments). */
const INVALID_SYMBOLS = /;|--|\/\*|\*\//;

/**
 * Functions no caller query may call, wherever they appear: they read files or settings, or run SQL given as
 * text (which would bypass these checks). Table functions are refused as a whole (see checkTree).
 */
const DENIED_FUNCTIONS = new Set([
  "getenv",
  "current_setting",
  "getvariable",
  "json_execute_serialized_sql",
  "json_deserialize_sql",
  "json_serialize_sql",
  "json_serialize_plan",
  "read_text",
  "read_blob",
  "read_csv",
  "read_csv_auto",
  "read_json",
  "read_json_auto",
  "read_json_objects",
  "read_ndjson",
  "read_parquet",
  "parquet_scan",
  "parquet_metadata",
  "parquet_schema",
  "glob",
  "query",
  "query_table",
  "sniff_csv",
]);

/** Expression classes a filter may use: comparisons, logic, functions of its row's columns, constants. */
const FILTER_CLASSES = new Set([
  "COLUMN_REF",
  "CONSTANT",
  "COMPARISON",
  "CONJUNCTION",
  "OPERATOR",
  "FUNCTION",
  "CAST",
  "CASE",
  "BETWEEN",
  "COLLATE",
]);
/** A console query may also use subqueries (over the splits), `*`, window functions and lambdas. */
const CONSOLE_CLASSES = new Set([...FILTER_CLASSES, "STAR", "SUBQUERY", "WINDOW", "LAMBDA", "LAMBDA_REF"]);
/** FROM clauses a console query may use: named tables (the splits, its CTEs), joins, subqueries, VALUES. */
const CONSOLE_TABLE_REFS = new Set(["BASE_TABLE", "JOIN", "SUBQUERY", "EMPTY", "EXPRESSION_LIST"]);

const isNode = (value: Json | undefined): value is Node =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function* nodesOf(value: Json): Generator<Node> {
  if (Array.isArray(value)) {
    for (const item of value) yield* nodesOf(item);
  } else if (isNode(value)) {
    yield value;
    for (const child of Object.values(value)) yield* nodesOf(child);
  }
}

/** Names the query's CTEs define (`WITH x AS (...)`), anywhere in it. */
function cteNames(tree: Json): Set<string> {
  const names = new Set<string>();
  for (const node of nodesOf(tree)) {
    const map = node.cte_map;
    if (isNode(map) && Array.isArray(map.map)) {
      for (const entry of map.map) if (isNode(entry) && typeof entry.key === "string") names.add(entry.key);
    }
  }
  return names.size ? new Set([...names].map((name) => name.toLowerCase())) : names;
}

interface TreeRules {
  classes: Set<string>;
  /** Lower-case names of the tables the query may read (besides its own CTEs); none for a filter. */
  tables: Set<string>;
  /** For a filter: the lower-case column names its expressions may refer to. */
  columns?: Set<string>;
  refuse: (message: string) => Error;
}

/** Walks every node of a parse tree and refuses what the rules do not allow. */
function checkTree(tree: Json, rules: TreeRules): void {
  const ctes = cteNames(tree);
  for (const node of nodesOf(tree)) {
    const cls = node.class;
    if (typeof cls === "string") {
      if (!rules.classes.has(cls))
        throw rules.refuse(`${cls.toLowerCase().replaceAll("_", " ")} is not allowed`);
      if (cls === "FUNCTION") {
        const name = String(node.function_name).toLowerCase();
        if (DENIED_FUNCTIONS.has(name)) throw rules.refuse(`the function ${name} is not allowed`);
        if (node.schema || node.catalog) throw rules.refuse("qualified function names are not allowed");
      }
      if (cls === "COLUMN_REF" && rules.columns) {
        const names = node.column_names;
        const first = Array.isArray(names) ? String(names[0]).toLowerCase() : "";
        if (!rules.columns.has(first)) throw rules.refuse(`there is no column ${JSON.stringify(first)}`);
      }
      continue;
    }
    const type = node.type;
    if (typeof type !== "string" || !("alias" in node) || !("query_location" in node)) continue;
    // A table reference (FROM): only named tables of this dataset, no table function (read_csv, glob...).
    if (!CONSOLE_TABLE_REFS.has(type)) {
      throw rules.refuse(
        type === "TABLE_FUNCTION"
          ? "table functions (read_csv, read_parquet, glob...) are not allowed: query the splits by name"
          : `${type.toLowerCase().replaceAll("_", " ")} is not allowed`,
      );
    }
    if (type === "BASE_TABLE") {
      const name = String(node.table_name).toLowerCase();
      if (node.schema_name || node.catalog_name || (!rules.tables.has(name) && !ctes.has(name))) {
        throw rules.refuse(`there is no table ${JSON.stringify(String(node.table_name))}`);
      }
    }
  }
}

/** The one SELECT statement of a parse, or the reason there is not exactly one. */
function onlyStatement(parsed: ParsedSql, refuse: (message: string) => Error): Node {
  if (parsed.error) {
    const message = parsed.error_message.startsWith("Only SELECT statements")
      ? "only one read-only SELECT query is allowed"
      : parsed.error_message;
    throw refuse(message);
  }
  if (parsed.statements.length !== 1) throw refuse("exactly one statement is expected");
  return parsed.statements[0]!.node;
}

/** The text DuckDB parses to check a filter: the caller's parts in a fixed query over `data`. */
export function filterProbe(where: string | undefined, orderby: string | undefined): string {
  for (const [name, value] of [
    ["where", where],
    ["orderby", orderby],
  ] as const) {
    if (value !== undefined && INVALID_SYMBOLS.test(value)) {
      throw new InvalidSqlParameterError(`Parameter '${name}' contains invalid symbols`);
    }
  }
  return `SELECT * FROM data WHERE (${where?.trim() ? where : "true"})${orderby?.trim() ? ` ORDER BY ${orderby}` : ""}`;
}

/** A checked filter: the parse-tree parts (where expression, ORDER BY items) to place in the hub's own query. */
export interface CheckedFilter {
  where: Json;
  orders: Json[];
}

/**
 * Checks a filter's parse (of filterProbe's text): one SELECT over `data` whose only caller-written parts
 * are a where expression and ORDER BY items over the split's columns, with no subquery, table or file.
 */
export function checkFilter(
  parsed: ParsedSql,
  columns: readonly string[],
  hasOrderby: boolean,
): CheckedFilter {
  const parameter = hasOrderby ? "'where' or 'orderby'" : "'where'";
  const refuse = (message: string) =>
    new InvalidSqlParameterError(`Parameter ${parameter} is invalid: ${message}.`);
  const node = onlyStatement(parsed, refuse);
  const from = node.from_table;
  const select = node.select_list;
  const modifiers = Array.isArray(node.modifiers) ? node.modifiers : [];
  const cte = isNode(node.cte_map) && Array.isArray(node.cte_map.map) ? node.cte_map.map : [];
  const shapeIntact =
    node.type === "SELECT_NODE" &&
    isNode(from) &&
    from.type === "BASE_TABLE" &&
    from.table_name === "data" &&
    Array.isArray(select) &&
    select.length === 1 &&
    isNode(select[0]) &&
    select[0].class === "STAR" &&
    cte.length === 0 &&
    (!Array.isArray(node.group_expressions) || node.group_expressions.length === 0) &&
    node.having === null &&
    node.qualify === null &&
    node.sample === null &&
    modifiers.length <= (hasOrderby ? 1 : 0) &&
    modifiers.every((modifier) => isNode(modifier) && modifier.type === "ORDER_MODIFIER");
  if (!shapeIntact) throw refuse("it must be an expression over the split's columns");
  const orders = modifiers.flatMap((modifier) =>
    isNode(modifier) && Array.isArray(modifier.orders) ? modifier.orders : [],
  );
  const rules: TreeRules = {
    classes: FILTER_CLASSES,
    tables: new Set(),
    columns: new Set(columns.map((name) => name.toLowerCase())),
    refuse,
  };
  checkTree(node.where_clause ?? null, rules);
  for (const order of orders) checkTree(isNode(order) ? (order.expression ?? null) : null, rules);
  return { where: node.where_clause ?? null, orders };
}

/** Puts a checked filter's parts in the hub's own parsed query (its where clause and first ORDER BY). */
export function withFilter(parsed: ParsedSql, filter: CheckedFilter): ParsedSql {
  if (parsed.error) return parsed;
  const node = structuredClone(parsed.statements[0]!.node);
  node.where_clause = filter.where;
  const modifiers = Array.isArray(node.modifiers) ? node.modifiers : [];
  const order = modifiers.find((modifier) => isNode(modifier) && modifier.type === "ORDER_MODIFIER");
  if (isNode(order) && Array.isArray(order.orders)) order.orders = [...filter.orders, ...order.orders];
  return { error: false, statements: [{ node }] };
}

/**
 * Checks a console query's parse: one SELECT (with CTEs, joins, subqueries, set operations) that reads only
 * the given tables (the dataset's splits) and its own CTEs: no table function, file, other catalog or setting.
 */
export function checkConsoleQuery(parsed: ParsedSql, tables: readonly string[]): void {
  const refuse = (message: string) => new RefusedQueryError(`The query is refused: ${message}.`);
  const node = onlyStatement(parsed, refuse);
  checkTree(node, {
    classes: CONSOLE_CLASSES,
    tables: new Set(tables.map((name) => name.toLowerCase())),
    refuse,
  });
}

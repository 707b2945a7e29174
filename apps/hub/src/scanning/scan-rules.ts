import { createHash } from "node:crypto";
import type { SafetyLevel } from "./scan-report.js";
import scanRulesData from "./scan-rules.json" with { type: "json" };

/**
 * The allow- and deny-lists of pickle globals (one data file, scan-rules.json, which says where its entries
 * come from) and the classification of one global against them: deny wins over allow, a denied module denies
 * its submodules, and anything on neither list is suspicious.
 */

type NameList = string[] | "*";

export interface ScanRules {
  source: string;
  moduleAliases: Record<string, string>;
  deny: Record<string, NameList>;
  denyNameSegments: string[];
  allow: Record<string, string[]>;
  nestedPickleLoaders: string[];
}

export const SCAN_RULES: ScanRules = scanRulesData as ScanRules;

/** A short digest of the rules data, part of the scanner version stamp so a rules change re-scans files. */
export const SCAN_RULES_DIGEST = createHash("sha256")
  .update(JSON.stringify(SCAN_RULES))
  .digest("hex")
  .slice(0, 12);

/** The module marker of a global whose module or name could not be read as a string (a scanner bypass attempt). */
export const UNRESOLVABLE_MODULE = "<unresolvable>";

const denySegments = new Set(SCAN_RULES.denyNameSegments);
const nestedLoaders = new Set(SCAN_RULES.nestedPickleLoaders);

function listHas(list: NameList | undefined, name: string): boolean {
  return list !== undefined && (list === "*" || list.includes(name));
}

/** The module and its parents, most specific first: "a.b.c", "a.b", "a". */
function moduleAndParents(module: string): string[] {
  const parts = module.split(".");
  const out: string[] = [];
  for (let i = parts.length; i > 0; i--) out.push(parts.slice(0, i).join("."));
  return out;
}

/** The names a module is known by: itself and its Python 3 name when it is a Python 2 one (fix_imports). */
function moduleNames(module: string): string[] {
  const alias = SCAN_RULES.moduleAliases[module];
  return alias ? [module, alias] : [module];
}

function isDenied(module: string, name: string): boolean {
  const firstSegment = name.split(".")[0] ?? name;
  if (name.split(".").some((segment) => denySegments.has(segment))) return true;
  for (const known of moduleNames(module)) {
    for (const candidate of moduleAndParents(known)) {
      const list = SCAN_RULES.deny[candidate];
      if (list === "*") return true;
      // The exact module's names (a dotted name such as "getattr.__call__" is resolved from its first segment).
      if (candidate === known && (listHas(list, name) || listHas(list, firstSegment))) return true;
    }
  }
  return false;
}

function isAllowed(module: string, name: string): boolean {
  return moduleNames(module).some((known) => listHas(SCAN_RULES.allow[known], name));
}

/** How dangerous importing `module.name` from a pickle is. */
export function classifyGlobal(module: string, name: string): SafetyLevel {
  if (module === UNRESOLVABLE_MODULE) return "dangerous";
  if (isDenied(module, name)) return "dangerous";
  if (isAllowed(module, name)) return "innocuous";
  return "suspicious";
}

/** True when calling this global with bytes unpickles them (pickle.loads...): the bytes are scanned too. */
export function isNestedPickleLoader(module: string, name: string): boolean {
  return moduleNames(module).some((known) => nestedLoaders.has(`${known}.${name}`));
}

import type { Stmt, Target } from "../ast/nodes.js";
import { NOT_FOUND, type RenderState } from "./state.js";
import { Undefined } from "./values.js";

/**
 * Variables live in frames resolved at compile time: a frame is an array `[parentFrame, ...slots]`, one per
 * scope (template, loop iteration, macro call, with/filter/set blocks). A slot holds NOT_SET until the
 * template assigns it, in which case lookups continue outward and finally reach the render context and
 * the globals, which is how Jinja2 resolves names. No prototype chains, no per-lookup hashing.
 */
export type Frame = unknown[];

export const NOT_SET: unique symbol = Symbol("not set");

/** A compile-time scope: the slot of each name it declares (slot 0 of a frame is the parent frame). */
export interface ScopeInfo {
  readonly parent: ScopeInfo | null;
  readonly slots: Map<string, number>;
  /** The template's names read from the context or the globals (shared by its scopes): their cache index. */
  readonly outerNames: Map<string, number>;
  /** The template's literal closures by value (shared by its scopes). */
  readonly constants: Map<unknown, LookupFn>;
  /** Compiled reads of names in this scope (with the number of slots declared up its chain then). */
  readonly lookups: Map<string, { fn: LookupFn; declared: number }>;
}

export const newScope = (parent: ScopeInfo | null): ScopeInfo => ({
  parent,
  slots: new Map(),
  lookups: new Map(),
  outerNames: parent?.outerNames ?? new Map(),
  constants: parent?.constants ?? new Map(),
});

/** The slot of `name` in `scope`, declaring it if new. */
export function declare(scope: ScopeInfo, name: string): number {
  let slot = scope.slots.get(name);
  if (slot === undefined) {
    slot = scope.slots.size + 1;
    scope.slots.set(name, slot);
  }
  return slot;
}

export function newFrame(parent: Frame | null, size: number): Frame {
  const frame: Frame = [parent];
  for (let i = 0; i < size; i++) frame.push(NOT_SET);
  return frame;
}

/** Declares the names a scope's own statements assign (not those of nested scopes). */
export function declareAssigned(stmts: Stmt[], scope: ScopeInfo): void {
  for (const stmt of stmts) {
    switch (stmt.kind) {
      case "set":
      case "setblock":
        declareTarget(stmt.target, scope);
        break;
      case "macro":
        declare(scope, stmt.name);
        break;
      case "if":
        declareAssigned(stmt.body, scope);
        declareAssigned(stmt.otherwise, scope);
        break;
      case "for":
        declareAssigned(stmt.otherwise, scope);
        break;
    }
  }
}

export function declareTarget(target: Target, scope: ScopeInfo): void {
  if (target.kind === "name") declare(scope, target.name);
  else if (target.kind === "tuple") for (const item of target.items) declareTarget(item, scope);
}

export type LookupFn = (frame: Frame, st: RenderState) => unknown;

/**
 * A name read from the render context or the globals (cached per render by RenderState.resolveOuter). A
 * name in neither gives a new Undefined at each read, as in Jinja2 (`x is sameas x` is false).
 */
function outerValue(st: RenderState, index: number, name: string): unknown {
  let v = st.outer[index];
  if (v === undefined) v = st.resolveOuter(index, name);
  return v === NOT_FOUND ? new Undefined(`'${name}' is undefined`) : v;
}

/**
 * Compiles a read of `name`: the enclosing scopes that may assign it, then context and globals. Reads of
 * one name in one scope share one closure: rendering is bound by memory traffic (911 compiled templates
 * do not fit in the CPU caches), so a template's closures are kept few.
 */
export function compileLookup(name: string, scope: ScopeInfo): LookupFn {
  let declared = 0;
  for (let s: ScopeInfo | null = scope; s !== null; s = s.parent) declared += s.slots.size;
  const known = scope.lookups.get(name);
  if (known !== undefined && known.declared === declared) return known.fn;
  const fn = makeLookup(name, scope);
  scope.lookups.set(name, { fn, declared });
  return fn;
}

function makeLookup(name: string, scope: ScopeInfo): LookupFn {
  const path: number[] = [];
  let hops = 0;
  for (let s: ScopeInfo | null = scope; s !== null; s = s.parent, hops++) {
    const slot = s.slots.get(name);
    if (slot !== undefined) path.push(hops, slot);
  }
  let index = scope.outerNames.get(name);
  if (index === undefined) {
    index = scope.outerNames.size;
    scope.outerNames.set(name, index);
  }
  const outer = index;
  if (path.length === 0) return (_frame, st) => outerValue(st, outer, name);
  if (path.length === 2 && path[0] === 0) {
    const slot = path[1]!;
    return (frame, st) => {
      const v = frame[slot];
      return v !== NOT_SET ? v : outerValue(st, outer, name);
    };
  }
  return (frame, st) => {
    let f = frame;
    let at = 0;
    for (let i = 0; i < path.length; i += 2) {
      const want = path[i]!;
      while (at < want) {
        f = f[0] as Frame;
        at++;
      }
      const v = f[path[i + 1]!];
      if (v !== NOT_SET) return v;
    }
    return outerValue(st, outer, name);
  };
}

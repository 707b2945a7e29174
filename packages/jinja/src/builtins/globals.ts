import { TemplateRaisedError, TemplateRuntimeError } from "../errors.js";
import { iterate, typeError } from "../runtime/operators.js";
import { pyStr } from "../runtime/printing.js";
import {
  bigOf,
  dictSetKey,
  dictUpdate,
  isMapping,
  isUndefined,
  type Kwargs,
  makeRange,
  Namespace,
  newDict,
  normInt,
  PyCallable,
} from "../runtime/values.js";
import { pyInt } from "./args.js";
import { DICT_METHODS } from "./methods.js";
import { strftime } from "./strftime.js";

/** jinja2.sandbox.MAX_RANGE: larger ranges raise OverflowError. */
const MAX_RANGE = 100_000;

function range(args: unknown[]): unknown[] {
  if (args.length === 0 || args.length > 3)
    throw typeError(`range expected at most 3 arguments, got ${args.length}`);
  let start: number | bigint = 0;
  let stop: number | bigint;
  let step: number | bigint = 1;
  if (args.length === 1) stop = pyInt(args[0]);
  else {
    start = pyInt(args[0]);
    stop = pyInt(args[1]);
    if (args.length === 3) step = pyInt(args[2]);
  }
  if (step === 0) throw new TemplateRuntimeError("range() arg 3 must not be zero", "ValueError");
  if (typeof start !== "number" || typeof stop !== "number" || typeof step !== "number")
    return bigRange(bigOf(start), bigOf(stop), bigOf(step));
  const count = Math.max(0, Math.ceil((stop - start) / step));
  checkRange(count);
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = start + i * step;
  return makeRange(out, start, stop, step);
}

function checkRange(count: number | bigint): void {
  if (count > MAX_RANGE) {
    throw new TemplateRuntimeError(
      `Range too big. The sandbox blocks ranges larger than MAX_RANGE (${MAX_RANGE}).`,
      "OverflowError",
    );
  }
}

/** A range with a bound past 2**53: its items are ints (numbers where safe), its bounds bigints. */
function bigRange(start: bigint, stop: bigint, step: bigint): unknown[] {
  const span = step > 0n ? stop - start : start - stop;
  const by = step > 0n ? step : -step;
  const count = span <= 0n ? 0n : (span + by - 1n) / by;
  checkRange(count);
  const out: unknown[] = [];
  for (let i = 0n; i < count; i++) out.push(normInt(start + i * step));
  return makeRange(out as bigint[], start, stop, step);
}

/** dict(mapping_or_pairs, **kwargs), also used by namespace(). */
function buildDict(args: unknown[], kwargs: Kwargs | null): Record<string, unknown> {
  const out = newDict();
  if (args.length > 1) throw typeError(`dict expected at most 1 argument, got ${args.length}`);
  if (args.length === 1) {
    const src = args[0];
    if (isMapping(src)) dictUpdate(out, src);
    else if (src instanceof Namespace) dictUpdate(out, src.attrs);
    else {
      for (const pair of iterate(src)) {
        const kv = iterate(pair);
        if (kv.length !== 2)
          throw new TemplateRuntimeError("dictionary update sequence element has wrong length", "ValueError");
        dictSetKey(out, kv[0], kv[1]);
      }
    }
  }
  if (kwargs !== null) dictUpdate(out, kwargs);
  return out;
}

export interface GlobalsOptions {
  now: () => Date;
}

/** The template globals transformers' chat environment provides. Values are template callables only. */
export function createGlobals(): Record<string, unknown> {
  const globals: Record<string, unknown> = Object.create(null);
  globals.range = new PyCallable("range", (args) => range(args));
  globals.dict = new PyCallable("dict", (args, kwargs) => buildDict(args, kwargs), "function", {
    fromkeys: new PyCallable("fromkeys", (args, kwargs, st) =>
      DICT_METHODS.fromkeys!(newDict(), args, kwargs, st),
    ),
  });
  globals.namespace = new PyCallable("namespace", (args, kwargs) => {
    const ns = new Namespace();
    dictUpdate(ns.attrs, buildDict(args, kwargs));
    return ns;
  });
  globals.raise_exception = new PyCallable("raise_exception", (args) => {
    throw new TemplateRaisedError(isUndefined(args[0]) ? "" : pyStr(args[0]));
  });
  globals.strftime_now = new PyCallable("strftime_now", (args, _kwargs, st) => {
    const format = args[0];
    if (typeof format !== "string") throw typeError("strftime() argument 1 must be str");
    return strftime(format, st.now());
  });
  globals.cycler = new PyCallable("cycler", (items) => {
    let pos = 0;
    const next = () => {
      const current = items[pos];
      pos = (pos + 1) % items.length;
      return current;
    };
    const ns = new Namespace();
    ns.attrs.next = new PyCallable("next", next);
    ns.attrs.reset = new PyCallable("reset", () => {
      pos = 0;
      return null;
    });
    Object.defineProperty(ns.attrs, "current", { get: () => items[pos], enumerable: true });
    return ns;
  });
  globals.joiner = new PyCallable("joiner", (args) => {
    const sep = args.length > 0 ? pyStr(args[0]) : ", ";
    let used = false;
    return new PyCallable("joiner", () => {
      if (!used) {
        used = true;
        return "";
      }
      return sep;
    });
  });
  globals.lipsum = new PyCallable("lipsum", () => "Lorem ipsum dolor sit amet.");
  return globals;
}

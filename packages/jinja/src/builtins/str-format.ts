import { TemplateRuntimeError } from "../errors.js";
import { intToFloat } from "../runtime/integers.js";
import { checkPadding } from "../runtime/limits.js";
import { typeError } from "../runtime/operators.js";
import { formatDigits, toFixed } from "../runtime/percent-format.js";
import { formatFloat, formatInt, pyRepr, pyStr } from "../runtime/printing.js";
import { checkSizeCap } from "../runtime/state.js";
import {
  isMapping,
  isNumber,
  isUndefined,
  type Kwargs,
  Markup,
  num,
  PyFloat,
  typeName,
} from "../runtime/values.js";
import { type Method, table, valueError } from "./args.js";

const FIELD = /^([^.[!:]*)((?:\.[^.[!:]+|\[[^\]]*\])*)(?:!([rsa]))?(?::([\s\S]*))?$/;
const SPEC = /^(?:([\s\S])?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/;

/** How a format field reads `.name` and `[key]`: the sandbox's own attribute and item access. */
export interface FieldAccess {
  getAttr(obj: unknown, name: string): unknown;
  getItem(obj: unknown, key: unknown): unknown;
}

/** str.format and str.format_map, reading fields through `access`. */
export function formatMethods(access: FieldAccess): Record<string, Method> {
  const text = (self: unknown): string => (self instanceof Markup ? self.text : (self as string));
  return table<Method>({
    format: (s, a, k) => formatString(text(s), a, k, access),
    format_map: (s, a) => {
      if (!isMapping(a[0])) throw typeError(`'${typeName(a[0])}' object is not subscriptable`);
      return formatString(text(s), [], a[0], access);
    },
  });
}

/** Python's str.format (as jinja2's SandboxedFormatter allows it: attribute access goes through the sandbox). */
function formatString(format: string, args: unknown[], kwargs: Kwargs | null, access: FieldAccess): string {
  let auto = 0;
  // The pieces are counted as they are made: the joined result is checked before it is allocated.
  let produced = format.length;
  return format.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, field: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const m = FIELD.exec(field ?? "");
    if (!m) throw new TemplateRuntimeError(`invalid format field '${field}'`, "ValueError");
    const [, name = "", accessors = "", conversion, spec = ""] = m;
    let value: unknown;
    if (name === "") {
      if (auto >= args.length)
        throw new TemplateRuntimeError(`Replacement index ${auto} out of range`, "IndexError");
      value = args[auto++];
    } else if (/^\d+$/.test(name)) {
      const i = Number(name);
      if (i >= args.length)
        throw new TemplateRuntimeError(`Replacement index ${i} out of range`, "IndexError");
      value = args[i];
    } else {
      if (kwargs === null || !Object.hasOwn(kwargs, name))
        throw new TemplateRuntimeError(`'${name}'`, "KeyError");
      value = kwargs[name];
    }
    for (const part of accessors.match(/\.[^.[]+|\[[^\]]*\]/g) ?? []) {
      if (part[0] === ".") value = access.getAttr(value, part.slice(1));
      else {
        const key = part.slice(1, -1);
        value = access.getItem(value, /^\d+$/.test(key) ? Number(key) : key);
      }
    }
    if (conversion === "r" || conversion === "a") value = pyRepr(value);
    else if (conversion === "s") value = pyStr(value);
    const piece = formatSpec(value, spec);
    produced += piece.length;
    checkSizeCap(produced);
    return piece;
  });
}

const unknownCode = (type: string, value: unknown) =>
  valueError(`Unknown format code '${type}' for object of type '${typeName(value)}'`);

/** Python's format(value, spec) for str, int and float. */
export function formatSpec(value: unknown, spec: string): string {
  if (spec === "") return pyStr(value);
  const m = SPEC.exec(spec);
  if (!m) throw new TemplateRuntimeError(`Invalid format specifier '${spec}'`, "ValueError");
  const [, fill = " ", alignSpec, sign = "-", alternate, zero, widthText, grouping, precText, type] = m;
  const width = widthText === undefined ? 0 : Number(widthText);
  checkPadding(width);
  const precision = precText === undefined ? undefined : Number(precText);
  if (precision !== undefined) checkPadding(precision);
  let body: string;
  let numeric = false;
  const text = typeof value === "string" ? value : value instanceof Markup ? value.text : null;
  if (text !== null) {
    if (type !== undefined && type !== "s") throw unknownCode(type, value);
    if (grouping) throw valueError(`Cannot specify '${grouping}' with 's'.`);
    body = precision === undefined ? text : [...text].slice(0, precision).join("");
  } else if (isNumber(value) || typeof value === "boolean") {
    numeric = true;
    // An int past 2**53 stays a bigint: exact digits for the integer types, float(n) for the float ones.
    const exact =
      typeof value === "bigint" && (type === undefined || "bcdoxXn".includes(type)) ? value : null;
    if (typeof value === "bigint" && type === "c")
      throw new TemplateRuntimeError("%c arg not in range(0x110000)", "OverflowError");
    const n = typeof value === "bigint" ? (exact !== null ? 0 : intToFloat(value)) : num(value);
    const isFloat = value instanceof PyFloat || !Number.isInteger(n);
    if (type === "s" || (isFloat && type !== undefined && "bcdoxX".includes(type)))
      throw unknownCode(type!, value);
    if (!isFloat && precision !== undefined && (type === undefined || "bcdoxXn".includes(type))) {
      throw valueError("Precision not allowed in integer format specifier");
    }
    const abs = exact !== null ? (exact < 0n ? -exact : exact) : Math.abs(n);
    const conv = type === "n" ? (isFloat ? "g" : "d") : type;
    const noType = conv === undefined && precision !== undefined;
    const digits = formatDigits(abs, conv, precision, noType, alternate !== undefined);
    if (digits !== null) body = digits;
    else if (typeof abs === "bigint") body = formatInt(abs);
    else if (conv === "%") body = `${toFixed(abs * 100, precision ?? 6)}%`;
    else if (conv === "c") body = String.fromCodePoint(abs);
    else body = isFloat ? formatFloat(abs) : formatInt(abs);
    if (grouping) {
      const [intPart = "", frac] = body.split(".");
      // `_` groups binary, octal and hex digits by four.
      const byFour = grouping === "_" && conv !== undefined && "boxX".includes(conv);
      const group = byFour ? /\B(?=([0-9a-fA-F]{4})+(?![0-9a-fA-F]))/g : /\B(?=(\d{3})+(?!\d))/g;
      body = intPart.replace(group, grouping) + (frac !== undefined ? `.${frac}` : "");
    }
    const negative = exact !== null ? exact < 0n : n < 0 || Object.is(n, -0);
    body = (negative ? "-" : sign === "+" ? "+" : sign === " " ? " " : "") + body;
  } else if (isUndefined(value)) {
    body = pyStr(value);
  } else {
    throw typeError(`unsupported format string passed to ${typeName(value)}.__format__`);
  }
  const align = alignSpec ?? (zero && numeric ? "=" : numeric ? ">" : "<");
  const padChar = alignSpec === undefined && zero ? "0" : fill;
  const len = Array.from(body).length;
  if (len >= width) return body;
  const total = width - len;
  switch (align) {
    case "<":
      return body + padChar.repeat(total);
    case ">":
      return padChar.repeat(total) + body;
    case "^": {
      const left = Math.floor(total / 2);
      return padChar.repeat(left) + body + padChar.repeat(total - left);
    }
    default: {
      const lead = /^[-+ ]?(?:0[xXob])?/.exec(body)![0];
      return lead + padChar.repeat(total) + body.slice(lead.length);
    }
  }
}

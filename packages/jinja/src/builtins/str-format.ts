import { TemplateRuntimeError } from "../errors.js";
import { checkPadding, typeError } from "../runtime/operators.js";
import { formatDigits, toFixed } from "../runtime/percent-format.js";
import { formatFloat, pyRepr, pyStr } from "../runtime/printing.js";
import type { RenderState } from "../runtime/state.js";
import { isNumber, type Kwargs, num, PyFloat } from "../runtime/values.js";
import { getAttr, getItem } from "../sandbox.js";

const FIELD = /^([^.[!:]*)((?:\.[^.[!:]+|\[[^\]]*\])*)(?:!([rsa]))?(?::([\s\S]*))?$/;
const SPEC = /^(?:([\s\S])?([<>=^]))?([-+ ])?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/;

/** Python's str.format (as jinja2's SandboxedFormatter allows it: attribute access goes through the sandbox). */
export function formatString(
  format: string,
  args: unknown[],
  kwargs: Kwargs | null,
  _st: RenderState,
): string {
  let auto = 0;
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
      if (part[0] === ".") value = getAttr(value, part.slice(1));
      else {
        const key = part.slice(1, -1);
        value = getItem(value, /^\d+$/.test(key) ? Number(key) : key);
      }
    }
    if (conversion === "r" || conversion === "a") value = pyRepr(value);
    else if (conversion === "s") value = pyStr(value);
    return formatSpec(value, spec);
  });
}

/** Python's format(value, spec) for str, int and float. */
export function formatSpec(value: unknown, spec: string): string {
  if (spec === "") return pyStr(value);
  const m = SPEC.exec(spec);
  if (!m) throw new TemplateRuntimeError(`Invalid format specifier '${spec}'`, "ValueError");
  const [, fill = " ", alignSpec, sign = "-", , zero, widthText, grouping, precText, type] = m;
  const width = widthText === undefined ? 0 : Number(widthText);
  checkPadding(width);
  const precision = precText === undefined ? undefined : Number(precText);
  let body: string;
  let numeric = false;
  if (typeof value === "string") {
    if (type !== undefined && type !== "s")
      throw typeError(`Unknown format code '${type}' for object of type 'str'`);
    body = precision === undefined ? value : value.slice(0, precision);
  } else if (isNumber(value) || typeof value === "boolean") {
    numeric = true;
    const n = num(value);
    const isFloat = value instanceof PyFloat || !Number.isInteger(n);
    const abs = Math.abs(n);
    const digits = formatDigits(abs, type, precision);
    if (digits !== null) body = digits;
    else if (type === "%") body = `${toFixed(abs * 100, precision ?? 6)}%`;
    else if (precision !== undefined) body = String(Number(abs.toPrecision(Math.max(1, precision))));
    else body = isFloat ? formatFloat(abs) : String(abs);
    if (grouping) {
      const [intPart = "", frac] = body.split(".");
      body = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, grouping) + (frac !== undefined ? `.${frac}` : "");
    }
    const negative = n < 0 || Object.is(n, -0);
    body = (negative ? "-" : sign === "+" ? "+" : sign === " " ? " " : "") + body;
  } else {
    body = pyStr(value);
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
      const signChar = /^[-+ ]/.test(body) ? body[0]! : "";
      return signChar + padChar.repeat(total) + body.slice(signChar.length);
    }
  }
}

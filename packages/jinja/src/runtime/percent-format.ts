import { TemplateRuntimeError } from "../errors.js";
import { checkPadding } from "./operators.js";
import { formatFloat, pyRepr, pyStr } from "./printing.js";
import { isNumber, num, PyFloat, typeName } from "./values.js";

/** One `%`-style conversion (`'%5.2f' % x`), as Python's str.__mod__ does it. */
export function formatDirective(
  value: unknown,
  flags: string,
  width: string | undefined,
  precision: string | undefined,
  conv: string,
): string {
  let body: string;
  const prec = precision === undefined ? undefined : Number(precision);
  switch (conv) {
    case "s":
      body = pyStr(value);
      if (prec !== undefined) body = body.slice(0, prec);
      break;
    case "r":
    case "a":
      body = pyRepr(value);
      break;
    case "c":
      body = typeof value === "number" ? String.fromCodePoint(value) : pyStr(value);
      break;
    default: {
      if (!isNumber(value) && typeof value !== "boolean") {
        throw new TemplateRuntimeError(`%${conv} format: a real number is required, not ${typeName(value)}`);
      }
      const n = num(value);
      body = formatNumber(n, conv, prec, flags, value instanceof PyFloat || !Number.isInteger(n));
    }
  }
  const w = width === undefined || width === "*" ? 0 : Number(width);
  checkPadding(w);
  if (body.length >= w) return body;
  if (flags.includes("-")) return body.padEnd(w);
  if (flags.includes("0") && conv !== "s" && conv !== "r") {
    const sign = body[0] === "-" || body[0] === "+" ? body[0] : "";
    return sign + body.slice(sign.length).padStart(w - sign.length, "0");
  }
  return body.padStart(w);
}

function formatNumber(
  n: number,
  conv: string,
  prec: number | undefined,
  flags: string,
  isFloat: boolean,
): string {
  let s: string;
  switch (conv) {
    case "d":
    case "i":
    case "u":
      s = String(Math.trunc(n));
      break;
    case "x":
      s = Math.trunc(n).toString(16);
      break;
    case "X":
      s = Math.trunc(n).toString(16).toUpperCase();
      break;
    case "o":
      s = Math.trunc(n).toString(8);
      break;
    case "f":
    case "F":
      s = n.toFixed(prec ?? 6);
      break;
    case "e":
    case "E": {
      const [m, e] = n.toExponential(prec ?? 6).split("e") as [string, string];
      const exp = Number(e);
      s = `${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
      if (conv === "E") s = s.toUpperCase();
      break;
    }
    default:
      s = isFloat ? formatFloat(n) : String(n);
  }
  if (n >= 0 && flags.includes("+")) s = `+${s}`;
  else if (n >= 0 && flags.includes(" ")) s = ` ${s}`;
  return s;
}

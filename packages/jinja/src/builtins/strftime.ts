const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const pad = (n: number, width = 2, fill = "0") => String(n).padStart(width, fill);

function dayOfYear(d: Date): number {
  const start = new Date(d.getFullYear(), 0, 1);
  return (
    Math.round(
      (new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime() - start.getTime()) / 86400000,
    ) + 1
  );
}

/** Numeric fields: value and zero-padded width. */
const NUMERIC: Record<string, (d: Date) => [number, number]> = {
  y: (d) => [d.getFullYear() % 100, 2],
  m: (d) => [d.getMonth() + 1, 2],
  d: (d) => [d.getDate(), 2],
  H: (d) => [d.getHours(), 2],
  I: (d) => [d.getHours() % 12 || 12, 2],
  M: (d) => [d.getMinutes(), 2],
  S: (d) => [d.getSeconds(), 2],
  j: (d) => [dayOfYear(d), 3],
};

/** Fields that are text, or numbers never padded. */
const TEXTUAL: Record<string, (d: Date) => string> = {
  Y: (d) => String(d.getFullYear()),
  e: (d) => pad(d.getDate(), 2, " "),
  f: (d) => pad(d.getMilliseconds() * 1000, 6),
  p: (d) => (d.getHours() < 12 ? "AM" : "PM"),
  A: (d) => DAYS[d.getDay()]!,
  a: (d) => DAYS[d.getDay()]!.slice(0, 3),
  B: (d) => MONTHS[d.getMonth()]!,
  b: (d) => MONTHS[d.getMonth()]!.slice(0, 3),
  h: (d) => MONTHS[d.getMonth()]!.slice(0, 3),
  w: (d) => String(d.getDay()),
  u: (d) => String(d.getDay() || 7),
  Z: () => "",
  z: () => "",
  "%": () => "%",
};

/** Fields that are shorthands for a format of other fields (in the C locale). */
const COMPOSITE: Record<string, string> = {
  D: "%m/%d/%y",
  x: "%m/%d/%y",
  F: "%Y-%m-%d",
  T: "%H:%M:%S",
  X: "%H:%M:%S",
  R: "%H:%M",
  c: "%a %b %e %H:%M:%S %Y",
};

/** C/Python strftime over a local-time Date (glibc's `%-d` style no-padding flag included). */
export function strftime(format: string, d: Date): string {
  return format.replace(/%([-_0^#]?)([a-zA-Z%])/g, (whole, flag: string, code: string) => {
    let out: string;
    if (Object.hasOwn(NUMERIC, code)) {
      const [n, width] = NUMERIC[code]!(d);
      out = flag === "-" ? String(n) : pad(n, width, flag === "_" ? " " : "0");
    } else if (code === "e" && flag === "-") out = String(d.getDate());
    else if (Object.hasOwn(TEXTUAL, code)) out = TEXTUAL[code]!(d);
    else if (Object.hasOwn(COMPOSITE, code)) out = strftime(COMPOSITE[code]!, d);
    else return whole;
    return flag === "^" ? out.toUpperCase() : out;
  });
}

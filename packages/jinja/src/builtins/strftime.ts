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

/** ISO 8601 week-numbering year and week: weeks start on Monday, week 1 holds the year's first Thursday. */
function isoWeek(d: Date): [year: number, week: number] {
  const day = new Date(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()));
  const weekday = day.getUTCDay() || 7;
  day.setUTCDate(day.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(day.getUTCFullYear(), 0, 1);
  return [day.getUTCFullYear(), Math.ceil(((day.getTime() - yearStart) / 86400000 + 1) / 7)];
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
  // Week of the year, the first Sunday (U) or Monday (W) starting week 1.
  U: (d) => [Math.floor((dayOfYear(d) - 1 + 7 - d.getDay()) / 7), 2],
  W: (d) => [Math.floor((dayOfYear(d) - 1 + 7 - ((d.getDay() + 6) % 7)) / 7), 2],
  V: (d) => [isoWeek(d)[1], 2],
  g: (d) => [isoWeek(d)[0] % 100, 2],
  C: (d) => [Math.floor(d.getFullYear() / 100), 2],
};

/** Fields that are text, or numbers never padded. */
const TEXTUAL: Record<string, (d: Date) => string> = {
  Y: (d) => String(d.getFullYear()),
  G: (d) => String(isoWeek(d)[0]),
  n: () => "\n",
  t: () => "\t",
  P: (d) => (d.getHours() < 12 ? "am" : "pm"),
  k: (d) => pad(d.getHours(), 2, " "),
  l: (d) => pad(d.getHours() % 12 || 12, 2, " "),
  s: (d) => String(Math.floor(d.getTime() / 1000)),
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
  r: "%I:%M:%S %p",
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
    else if (code === "k" && flag === "-") out = String(d.getHours());
    else if (code === "l" && flag === "-") out = String(d.getHours() % 12 || 12);
    else if (Object.hasOwn(TEXTUAL, code)) out = TEXTUAL[code]!(d);
    else if (Object.hasOwn(COMPOSITE, code)) out = strftime(COMPOSITE[code]!, d);
    else return whole;
    return flag === "^" ? out.toUpperCase() : out;
  });
}

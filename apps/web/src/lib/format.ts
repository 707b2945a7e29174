/**
 * A formatter built on first use: building an Intl formatter loads its locale data (tens of ms each with the
 * CPU slowed 4x), and at import it delayed every page that imports this module, used or not.
 */
function onFirstUse<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

const COUNT_UNITS: ReadonlyArray<readonly [suffix: string, size: number]> = [
  ["", 1],
  ["K", 1e3],
  ["M", 1e6],
  ["B", 1e9],
  ["T", 1e12],
];

/**
 * 1234567 -> "1.2M", the way counts read in lists: what `Intl.NumberFormat("en", { notation: "compact",
 * maximumFractionDigits: 1 })` writes (format.test.ts compares them), without building that formatter, whose
 * locale data cost the model page tens of milliseconds before its first paint with the CPU slowed 4x.
 */
export function formatCount(value: number | undefined): string {
  const count = value ?? 0;
  if (!Number.isFinite(count)) return String(count);
  const magnitude = Math.abs(count);
  let unit = COUNT_UNITS.findLastIndex(([, size]) => magnitude >= size);
  if (unit < 0) unit = 0;
  // Tenths of the unit, rounded half away from zero as Intl does; 999.95K is "1M", not "1000K".
  let tenths = Math.round((magnitude * 10) / (COUNT_UNITS[unit]?.[1] ?? 1));
  if (tenths >= 10_000 && unit < COUNT_UNITS.length - 1) {
    unit++;
    tenths = Math.round((magnitude * 10) / (COUNT_UNITS[unit]?.[1] ?? 1));
  }
  // Compact notation groups thousands only from five digits on ("2000T", "10,000T").
  const digits = String(Math.floor(tenths / 10));
  const whole = digits.length < 5 ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const fraction = tenths % 10 ? `.${tenths % 10}` : "";
  const sign = count < 0 && tenths > 0 ? "-" : "";
  return `${sign}${whole}${fraction}${COUNT_UNITS[unit]?.[0] ?? ""}`;
}

const dateFormat = onFirstUse(
  () => new Intl.DateTimeFormat("en", { year: "numeric", month: "short", day: "numeric" }),
);

export function formatDate(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : dateFormat().format(date);
}

const UNITS = ["B", "kB", "MB", "GB", "TB"];

/** 1536 -> "1.5 kB", 3_000_000_000 -> "3 GB" (decimal units, as the public hub shows sizes). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0).replace(/\.0+$/, "")} ${UNITS[unit]}`;
}

const relative = onFirstUse(() => new Intl.RelativeTimeFormat("en", { numeric: "auto" }));
const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 days ago", "just now": how long ago an ISO date was, against `now`. */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(seconds) >= size) return relative().format(Math.round(seconds / size), unit);
  }
  return "just now";
}

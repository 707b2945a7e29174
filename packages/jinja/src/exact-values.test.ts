import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { differences, hasJinja2, type OracleCase } from "./jinja2-oracle.js";

/**
 * Property tests against Python's Jinja2 for values JS does not have natively: ints past 2**53, dict keys
 * that are not strings, `\N{...}` escapes and str/bytes codecs. Templates are sampled by fast-check (fixed
 * seed, so a failure reproduces), rendered by both, compared output for output and error type for type.
 */

const SEED = 17;
const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number): T[] =>
  fc.sample(arbitrary, { seed: SEED, numRuns });

/** Ints around every edge: small, 2**53 +- 1, 64-bit, huge; floats that meet them; bools. */
const INT_LITERALS = [
  "0",
  "1",
  "-1",
  "7",
  "-3",
  "2**53",
  "2**53 + 1",
  "-(2**53) - 1",
  "9007199254740993",
  "2**63",
  "-(2**64)",
  "10**20",
  "3**40",
  "-(7**30)",
  "2**1023",
  "2**1024",
  "10**400",
  "true",
];
const FLOAT_LITERALS = ["0.5", "1.0", "-2.5", "1e16", "9007199254740993.0", "1e300", "1.5e308"];
const BINARY = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", ">=", "**"];
const FILTERS = [
  "int",
  "float",
  "abs",
  "round",
  "round(-3)",
  "round(1, 'floor')",
  "string",
  "tojson",
  "filesizeformat",
  "filesizeformat(true)",
  "string|length",
  "pprint",
  "int(0, 16)",
];
const FORMATS = [
  "'%d' % ",
  "'%x' % ",
  "'%#o' % ",
  "'%+08d' % ",
  "'%.3e' % ",
  "'%f' % ",
  "'%g' % ",
  "'{:,}'.format",
  "'{:_x}'.format",
  "'{:>30d}'.format",
  "'{:e}'.format",
  "'{:.2f}'.format",
  "'{:b}'.format",
  "'{:n}'.format",
  "'{:%}'.format",
];

const EXPONENTS = ["0", "1", "-1", "7", "-3", "true", "0.5", "1.0", "-2.5"];

const operand = fc.constantFrom(...INT_LITERALS, ...INT_LITERALS, ...FLOAT_LITERALS);

const intExpression = fc.oneof(
  fc
    .tuple(operand, fc.constantFrom(...BINARY), operand)
    // Jinja2 has no bound on `**`: exponents stay small enough for Python to answer at once. Float bases
    // are left out (V8's pow and C's can differ in the last digit: a known difference).
    .map(([a, op, b]) =>
      op === "**"
        ? `(${a.includes(".") || a.includes("e") ? "3" : a}) ** (${EXPONENTS.includes(b) ? b : "70"})`
        : `(${a}) ${op} (${b})`,
    ),
  fc.tuple(operand, fc.constantFrom(...FILTERS)).map(([a, f]) => `(${a})|${f}`),
  fc
    .tuple(fc.constantFrom(...FORMATS), operand)
    .map(([f, a]) => (f.endsWith("format") ? `${f}(${a})` : `${f}(${a})`)),
  fc
    .tuple(operand, operand, fc.constantFrom("max", "min", "sum", "sort", "unique|list"))
    .map(([a, b, f]) => `[${a}, ${b}, 1]|${f}`),
  fc.tuple(operand, operand).map(([a, b]) => `[${a}, ${b}]|tojson`),
  fc.constantFrom(
    "(2**60)|string|int",
    "'123456789012345678901234567890'|int",
    "'-0x1fffffffffffffffff'|int(0, 16)",
    "'1e20'|int",
    "'99999999999999999999'|float",
    "range(2**60, 2**60 + 4)|list",
    "range(2**60, 2**60 + 10, 3)",
    "range(2**60, 2**60 + 10, 3)[1:]",
    "range(2**60, 2**60 + 10, 3)|length",
    "2**70 is integer",
    "2**70 is number",
    "2**70 is even",
    "2**70 is divisibleby(3)",
    "(2**70) in [2**70]",
    "[1, 2][2**70]",
    "'ab' * 2**70",
    "'ab' * -(2**70)",
    "10**5000",
    "'1' * 5000|int",
    "(10**400) / 3",
    "(10**400) / (10**399)",
    "2**-2000",
    "(2.0)**2000",
    "'%c' % 2**70",
  ),
);

/** Dict keys of every hashable kind, colliding as Python's do (1, True, 1.0; '1' apart). */
const KEYS = [
  "1",
  "'1'",
  "true",
  "1.0",
  "0",
  "false",
  "2.5",
  "none",
  "'a'",
  "(1, 'x')",
  "(1,)",
  "2**70",
  "-3",
  "''",
];
const DICT_USES = [
  "",
  "|tojson",
  "|tojson(sort_keys=true)",
  "|pprint",
  "|dictsort",
  "|dictsort(by='value')",
  "|items|list",
  "|list",
  "|length",
  ".keys()",
  ".values()|list",
  ".items()",
  "|xmlattr",
  "|urlencode",
  "|first",
  "|sort",
  "|string",
];
const dictLiteral = fc
  .array(fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom("'v'", "2", "none", "[1]")), { maxLength: 4 })
  .map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(", ")}}`);
const dictExpression = fc.oneof(
  fc.tuple(dictLiteral, fc.constantFrom(...DICT_USES)).map(([d, use]) => `${d}${use}`),
  fc.tuple(dictLiteral, fc.constantFrom(...KEYS)).map(([d, k]) => `${d}[${k}]`),
  fc.tuple(dictLiteral, fc.constantFrom(...KEYS)).map(([d, k]) => `${d}.get(${k}, 'missing')`),
  fc.tuple(dictLiteral, fc.constantFrom(...KEYS)).map(([d, k]) => `${k} in ${d}`),
  fc.tuple(dictLiteral, dictLiteral).map(([a, b]) => `${a} == ${b}`),
  fc.tuple(dictLiteral, fc.constantFrom(...KEYS)).map(([d, k]) => `dict(${d}, x=1)[${k}] is defined`),
  fc
    .array(fc.constantFrom(...KEYS), { maxLength: 4 })
    .map((keys) => `dict.fromkeys([${keys.join(", ")}], 0)`),
  fc
    .array(fc.constantFrom(...KEYS), { maxLength: 3 })
    .map((keys) => `dict([${keys.map((k) => `(${k}, 1)`).join(", ")}])`),
  fc.constantFrom(
    "''.maketrans('ab', 'xy')",
    "'abc'.translate(''.maketrans('ab', 'xy', 'c'))",
    "'abc'.translate({97: 'A', 98: none})",
    "'abc'.translate(''.maketrans({'a': 'Z', 99: 100}))",
    "{[1]: 2}",
    "{{}: 2}",
    "{1: 2}[[1]]",
  ),
);

/** The Unicode name of Hangul syllable U+AC00 + i (Unicode 3.12), written out independently of the engine. */
function hangulName(i: number): string {
  const l = [
    "G",
    "GG",
    "N",
    "D",
    "DD",
    "R",
    "M",
    "B",
    "BB",
    "S",
    "SS",
    "",
    "J",
    "JJ",
    "C",
    "K",
    "T",
    "P",
    "H",
  ];
  const v = "A AE YA YAE EO E YEO YE O WA WAE OE YO U WEO WE WI YU EU YI I".split(" ");
  const t = ["", ..."G GG GS N NJ NH D L LG LM LB LS LT LP LH M B BS S SS NG J C K T P H".split(" ")];
  return l[Math.floor(i / 588)]! + v[Math.floor((i % 588) / 28)]! + t[i % 28]!;
}

/** Every name in the table, and names that must not be found (wrong case where case matters, typos). */
const TABLE_NAMES = (
  JSON.parse(readFileSync(new URL("./lexer/unicode-names.json", import.meta.url), "utf8")) as {
    names: string;
  }
).names
  .split("\n")
  .map((line) => line.slice(line.indexOf(":") + 1));
const unicodeName = fc.oneof(
  fc.constantFrom(...TABLE_NAMES),
  fc.constantFrom(...TABLE_NAMES).map((name) => name.toLowerCase()),
  fc.constantFrom(...TABLE_NAMES).map((name) => `${name}X`),
  fc.integer({ min: 0, max: 11171 }).map((i) => `HANGUL SYLLABLE ${hangulName(i)}`),
  fc
    .tuple(
      fc.constantFrom(0x3400, 0x4e00, 0x9fff, 0xa000, 0x20000, 0x2a6e0, 0x3134a, 0x3134b),
      fc.integer({ min: -2, max: 2 }),
    )
    .map(([cp, d]) => `CJK UNIFIED IDEOGRAPH-${(cp + d).toString(16).toUpperCase()}`),
  fc.constantFrom(
    "",
    "HANGUL SYLLABLE GAG",
    "HANGUL SYLLABLE gag",
    "HANGUL SYLLABLE GAGX",
    "cjk unified ideograph-4E00",
  ),
);

const CODECS = [
  "utf-16",
  "UTF16",
  "u16",
  "utf-16-le",
  "utf_16be",
  "utf-32",
  "utf-32-le",
  "UTF-32BE",
  "cp1252",
  "windows-1252",
];
const HANDLERS = ["strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace"];
/** Text pieces as template literals: ASCII, Latin-1, Windows-1252's own, astral and lone surrogates. */
// A high surrogate is always followed by "-": JS strings would pair it with a low one (Python's never do).
const TEXT_PIECES = ["a", "Z", "é", "€", "Ā", "😀", "\\ud800-", "\\udc00", "\\x81", "ÿ", " "];
/** Byte pieces (as Latin-1 text): BOMs, surrogate halves, odd lengths, cp1252's holes. */
const BYTE_PIECES = ["a", "\\x00", "\\xff", "\\xfe", "\\xd8", "\\xdc", "\\x3d", "\\x81", "\\x80", "\\x11"];
const codecExpression = fc.oneof(
  fc
    .tuple(
      fc.array(fc.constantFrom(...TEXT_PIECES), { maxLength: 6 }),
      fc.constantFrom(...CODECS),
      fc.constantFrom(...HANDLERS),
    )
    .map(([text, codec, handler]) => `'${text.join("")}'.encode('${codec}', '${handler}')`),
  fc
    .tuple(
      fc.array(fc.constantFrom(...TEXT_PIECES.slice(0, 6)), { maxLength: 6 }),
      fc.constantFrom(...CODECS),
    )
    .map(([text, codec]) => `'${text.join("")}'.encode('${codec}').decode('${codec}')`),
  fc
    .tuple(
      fc.array(fc.constantFrom(...BYTE_PIECES), { maxLength: 9 }),
      fc.constantFrom(...CODECS),
      fc.constantFrom(...HANDLERS.slice(0, 4)),
    )
    .map(
      ([bytes, codec, handler]) => `'${bytes.join("")}'.encode('latin-1').decode('${codec}', '${handler}')`,
    ),
);

// Each case batch runs python3 once: seconds on a loaded machine, hence the timeout.
describe.skipIf(!hasJinja2)(
  "exact values against Jinja2 (skipped: python3 cannot import jinja2)",
  { timeout: 60_000 },
  () => {
    it("keeps ints exact past 2**53 through operators, filters, formatting and ranges", () => {
      const cases: OracleCase[] = sample(intExpression, 600).map((e) => ({ template: `{{ ${e} }}` }));
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });

    it("keeps dict keys Python values: ints, floats, bools, None and tuples, colliding as in Python", () => {
      const cases: OracleCase[] = sample(dictExpression, 600).map((e) => ({ template: `{{ ${e} }}` }));
      cases.push({
        template: "{% for k, v in d|dictsort %}{{ k }}={{ v }};{% endfor %}",
        context: { d: { 2: "a", 1: "b" } },
      });
      cases.push({ template: "{{ d[1] }}|{{ d['1'] }}|{{ d.items()|list }}", context: { d: { 1: "a" } } });
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });

    it("decodes \\N{...} escapes by Unicode name, aliases included, and refuses unknown names as Jinja2", () => {
      const cases: OracleCase[] = sample(fc.array(unicodeName, { minLength: 1, maxLength: 3 }), 800).map(
        (names) => ({ template: `{{ "${names.map((n) => `\\N{${n}}`).join("")}" }}` }),
      );
      cases.push(
        { template: '{{ "\\N" }}' },
        { template: '{{ "\\N{LATIN SMALL LETTER A" }}' },
        ...["\\x4g", "\\x", "\\u12g4", "\\U0011", "\\U00110000", "\\q\\8\\777\\400"].map((body) => ({
          template: `{{ "${body}" }}`,
        })),
      );
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });

    it("encodes and decodes UTF-16, UTF-32 and Windows-1252 with Python's BOMs, error handlers and messages", () => {
      const cases: OracleCase[] = sample(codecExpression, 800).map((e) => ({ template: `{{ ${e} }}` }));
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });
  },
);

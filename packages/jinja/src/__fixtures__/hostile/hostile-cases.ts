/**
 * Hostile templates: each must end quickly, either rendering or throwing the engine's typed error (a
 * LimitExceededError where `limit` says so). The named ones are the reproductions; the generated
 * ones apply every filter and str method to adversarial strings, and every builder to oversized input.
 */
export interface HostileCase {
  name: string;
  template: string;
  context?: Record<string, unknown>;
  /** The case must end with LimitExceededError. */
  limit?: boolean;
}

const N = 200_000;
/** Size of the generated inputs: large enough that a quadratic algorithm takes seconds. */
const G = 60_000;

export const NAMED_CASES: HostileCase[] = [
  {
    name: "exponential macro fan-out",
    template: "{% macro r(n) %}{% if n<40 %}{{r(n+1)}}{{r(n+1)}}{% endif %}{% endmacro %}{{r(0)}}",
    limit: true,
  },
  {
    name: "exponential fan-out through a loop",
    template:
      "{% macro r(n) %}{% for i in range(9) %}{% if n<12 %}{{ r(n+1) }}{% endif %}{% endfor %}{% endmacro %}{{ r(0) }}",
    limit: true,
  },
  { name: "join of 450M characters", template: "{{ (['x'*9000000]*50)|join }}", limit: true },
  {
    name: "a loop of huge joins",
    template: "{% for i in range(20) %}{% set s = (['x'*9000000]*50)|join %}{% endfor %}",
    limit: true,
  },
  { name: "str.join method", template: "{{ ''.join(['x'*9000000]*50) }}", limit: true },
  { name: "replace filter", template: "{{ ('x'*5000000)|replace('x', 'yyyy') }}", limit: true },
  { name: "replace method", template: "{{ ('x'*5000000).replace('x', 'yyyy') }}", limit: true },
  { name: "replace of the empty string", template: "{{ ('x'*5000000).replace('', 'yy') }}", limit: true },
  { name: "urlencode", template: "{{ ('é'*4000000)|urlencode }}", limit: true },
  { name: "encode to character references", template: "{{ ('😀'*2000000).encode('ascii', 'xmlcharrefreplace') }}", limit: true },
  { name: "bytes repr", template: "{{ ('é'*3000000).encode() }}", limit: true },
  { name: "bytes hex", template: "{{ ('é'*3000000).encode().hex() }}", limit: true },
  { name: "urlencode of a dict", template: "{{ {'k': 'é'*4000000}|urlencode }}", limit: true },
  { name: "tojson indent", template: "{{ [[[[[[1]*20]*20]*20]*20]*20]|tojson(indent=100) }}", limit: true },
  { name: "tojson deep indent", template: "{{ ([[[[[[[[1]]]]]]]]*30000)|tojson(indent=99999) }}", limit: true },
  { name: "string of a nested list", template: "{{ ([range(3000)|list]*3000)|string }}", limit: true },
  { name: "printing a 3000x3000 nested list", template: "{{ [range(3000)|list]*3000 }}", limit: true },
  { name: "concatenating a nested list", template: "{{ 'a' ~ [range(3000)|list]*3000 }}", limit: true },
  { name: "str.format", template: "{{ '{0}{0}{0}{0}{0}{0}{0}{0}'.format('x'*2000000) }}", limit: true },
  { name: "str.format precision", template: "{{ '{:.99999999f}'.format(1.5) }}", limit: true },
  { name: "percent format", template: "{{ '%s%s%s%s%s%s' % (('x'*2000000,)*6) }}", limit: true },
  { name: "percent precision", template: "{{ '%.99999999d' % 1 }}", limit: true },
  { name: "format filter", template: "{{ '%s%s%s%s%s%s'|format(*(['x'*2000000]*6)) }}", limit: true },
  { name: "slice into 10**8 slices", template: "{{ range(10)|slice(10**8)|list|length }}", limit: true },
  { name: "batch with a huge fill", template: "{{ range(3)|batch(10**9, 'x')|list|length }}", limit: true },
  { name: "indent of many lines", template: "{{ ('\\n'*1000000)|indent(99999, blank=true) }}", limit: true },
  { name: "wordwrap with a long wrapstring", template: "{{ ('a '*1000000)|wordwrap(1, wrapstring='x'*1000) }}", limit: true },
  { name: "pprint of a nested list", template: "{{ ([range(3000)|list]*3000)|pprint }}", limit: true },
  { name: "map to string of big lists", template: "{{ ([[range(30000)|list]*1]*3000)|map('string')|list|length }}", limit: true },
  { name: "sum of lists", template: "{{ ([range(100000)|list]*1000)|sum(start=[]) }}", limit: true },
  { name: "striptags over comment openers", template: "{{ s|striptags|length }}", context: { s: "<!--".repeat(N) } },
  { name: "striptags over tag openers", template: "{{ s|striptags|length }}", context: { s: "<a".repeat(N) } },
  { name: "striptags over many comments", template: "{{ s|striptags|length }}", context: { s: "<!--a-->".repeat(N) } },
  { name: "striptags over many tags", template: "{{ s|striptags|length }}", context: { s: "<b>x</b>".repeat(N) } },
  { name: "striptags over entities", template: "{{ s|striptags|length }}", context: { s: "&amp;&#x41;&eacute".repeat(N / 4) } },
  { name: "for loop over a huge range nest", template: "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", limit: true },
  { name: "deep recursion", template: "{% macro r(n) %}{{ r(n+1) }}{% endmacro %}{{ r(0) }}", limit: true },
  { name: "string doubling", template: "{% set s = namespace(v='x') %}{% for i in range(64) %}{% set s.v = s.v ~ s.v %}{% endfor %}", limit: true },
  { name: "list doubling", template: "{% set s = namespace(v=[1]) %}{% for i in range(64) %}{% set s.v = s.v + s.v %}{% endfor %}", limit: true },
  { name: "multiplied string", template: "{{ 'x' * 10**10 }}", limit: true },
  { name: "center width", template: "{{ 'x'|center(10**9) }}", limit: true },
  { name: "huge int power", template: "{{ 10 ** (10**7) }}", limit: true },
  { name: "int squaring", template: "{% set s = namespace(v=3) %}{% for i in range(64) %}{% set s.v = s.v * s.v %}{% endfor %}", limit: true },
  { name: "int multiplying in a loop", template: "{% set s = namespace(v=1) %}{% for i in range(100000) %}{% set s.v = s.v * 7**1000 %}{% endfor %}", limit: true },
  { name: "int of many digits", template: "{{ ('9' * 1000000)|int }}" },
  { name: "many big-int formats", template: "{% for i in range(100000) %}{% set x = '%d' % 7**4000 %}{% endfor %}", limit: true },
  { name: "sort in a loop", template: "{% for i in range(100000) %}{% set x = big|sort %}{% endfor %}", context: { big: Array.from({ length: 20000 }, (_, i) => (i * 7919) % 20000) }, limit: true },
  {
    name: "unique of many distinct items",
    template: "{{ items|unique|list|length }}",
    context: { items: Array.from({ length: 200_000 }, (_, i) => `item ${i}`) },
  },
  { name: "upper in a loop", template: "{% for i in range(100000) %}{% set x = s|upper %}{% endfor %}", context: { s: "a".repeat(1_000_000) }, limit: true },
];

/** Inputs that make naive string algorithms slow (backtracking, repeated scans, expansions). */
const ADVERSARIAL_STRINGS: Record<string, string> = {
  lt: "<".repeat(G),
  "lt-a": "<a".repeat(G),
  comment: "<!--".repeat(G / 2),
  amp: "&".repeat(G),
  "amp-hash": "&#".repeat(G / 2),
  spaces: " ".repeat(G),
  "space-word": " a".repeat(G / 2),
  newlines: "\r\n".repeat(G / 2),
  tabs: "\t".repeat(G),
  braces: "{".repeat(G),
  percent: "%".repeat(G),
  sharp: "ß".repeat(G),
  astral: "😀".repeat(G / 2),
  "lone-surrogates": "\ud800".repeat(G),
  dashes: "-".repeat(G),
  digits: "9".repeat(G),
};

/** Filters applied to each adversarial string (those that take a string and no required argument). */
const STRING_FILTERS = [
  "capitalize", "center", "count", "e", "escape", "first", "forceescape", "float", "indent", "int", "last",
  "length", "list", "lower", "pprint", "reverse", "safe", "string", "striptags", "title", "tojson", "trim",
  "truncate", "unique", "upper", "urlencode", "wordcount", "wordwrap", "sort", "min", "max", "batch(3)",
  "slice(3)", "replace('a', 'bb')", "replace('<', '&lt;&lt;')", "join('-')", "format", "filesizeformat",
];

/** str methods applied to each adversarial string. */
const STRING_METHODS = [
  "strip()", "lstrip()", "rstrip('<')", "split()", "rsplit()", "split('<')", "rsplit('-', 3)", "splitlines()",
  "startswith('<')", "endswith('-')", "upper()", "lower()", "casefold()", "swapcase()", "title()",
  "capitalize()", "replace('<', 'ab')", "replace('', '')", "find('<a-')", "rfind('x')", "count('<a')",
  "count('')", "format()", "join(['a', 'b'])", "isdigit()", "isalpha()", "isalnum()", "isspace()", "islower()",
  "isupper()", "istitle()", "center(1000)", "ljust(1000)", "zfill(1000)", "partition('-')",
  "rpartition('<')", "removeprefix('<')", "removesuffix('-')", "expandtabs(8)", "index('<') if '<' in s else 0",
  "encode()", "encode('ascii', 'xmlcharrefreplace')", "encode('latin-1', 'backslashreplace')",
  "encode().decode()", "encode()[1:].decode('utf-8', 'backslashreplace')", "encode().hex()",
];

export function generatedCases(): HostileCase[] {
  const cases: HostileCase[] = [];
  for (const [label, s] of Object.entries(ADVERSARIAL_STRINGS)) {
    for (const filter of STRING_FILTERS) {
      cases.push({ name: `${label} | ${filter}`, template: `{{ (s|${filter})|string|length }}`, context: { s } });
    }
    for (const method of STRING_METHODS) {
      cases.push({ name: `${label} .${method}`, template: `{{ (s.${method})|string|length }}`, context: { s } });
    }
  }
  return cases;
}

export const ALL_CASES: HostileCase[] = [...NAMED_CASES, ...generatedCases()];

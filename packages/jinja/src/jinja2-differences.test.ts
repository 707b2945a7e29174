import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { differences, hasJinja2, type OracleCase } from "./jinja2-oracle.js";

/**
 * Property tests against Python's Jinja2 for the semantics the engine once got wrong: templates sampled
 * by fast-check (fixed seeds, so a failure reproduces), rendered by both, compared output for output.
 */

const SEED = 17;
const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number): T[] =>
  fc.sample(arbitrary, { seed: SEED, numRuns });

/** Text with what trips tag, entity and case handling up. */
const tricky = (pieces: string[], maxLength = 12) =>
  fc.array(fc.constantFrom(...pieces), { maxLength }).map((parts) => parts.join(""));

// Each case batch runs python3 once: seconds on a loaded machine, hence the timeout.
describe.skipIf(!hasJinja2)(
  "Jinja2 differences (skipped: python3 cannot import jinja2)",
  { timeout: 60_000 },
  () => {
    it("for-else runs unless an iteration ran through its body (break and continue skip the mark)", () => {
      const loop = fc.record({
        items: fc.array(fc.integer({ min: 0, max: 5 }), { maxLength: 5 }),
        breakAt: fc.integer({ min: -1, max: 5 }),
        continueAt: fc.integer({ min: -1, max: 5 }),
        filter: fc.boolean(),
      });
      const cases: OracleCase[] = sample(loop, 150).map(({ items, breakAt, continueAt, filter }) => ({
        template:
          `{% for x in items${filter ? " if x != 2" : ""} %}` +
          `{% if x == ${continueAt} %}{% continue %}{% endif %}{{ x }}` +
          `{% if x == ${breakAt} %}{% break %}{% endif %}{% else %}E{% endfor %}`,
        context: { items },
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("reads `m.0.1` and friends as attribute chains, not floats", () => {
      const path = fc.array(fc.constantFrom("0", "1", "2", "a", "10", "1e2", "0x1"), {
        minLength: 1,
        maxLength: 4,
      });
      const cases = sample(path, 120).map((parts) => ({
        template: `{{ m.${parts.join(".")} }}`,
        context: { m: [[1, [2, 3]], { a: [4, 5] }, "xyz"] },
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("striptags removes tag-like text and unescapes every HTML entity", () => {
      const text = tricky(
        [
          "<",
          ">",
          "<!--",
          "-->",
          "!",
          "-",
          "&",
          ";",
          "#",
          "x",
          "3",
          "9",
          "a",
          "b",
          " ",
          "\n",
          "amp",
          "eacute",
          "lt",
          "notin",
          "&#x",
          "<a ",
          "</b>",
        ],
        16,
      );
      const cases = sample(text, 300).map((s) => ({ template: "{{ s|striptags }}", context: { s } }));
      expect(differences(cases)).toEqual([]);
    });

    it("strftime_now knows the week, ISO and C99 codes", () => {
      const codes = fc.array(fc.constantFrom(..."aAbBcCdDeFgGhHIjklmMnprRsStTuUVwWxXyY%".split("")), {
        minLength: 1,
        maxLength: 6,
      });
      const flags = fc.constantFrom("", "-");
      const cases = sample(fc.tuple(codes, flags), 150).map(([list, flag]) => ({
        template: `{{ strftime_now(${JSON.stringify(list.map((c) => `%${c === "%" ? "" : flag}${c}`).join("|"))}) }}`,
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("capitalize and title follow Python's title case (ŉ, digraphs, Georgian, Greek with iota)", () => {
      const text = tricky(["ŉ", "ǆ", "ǈ", "ß", "ﬀ", "ა", "ᾳ", "ῲ", "a", "B", " ", "-", "'", "İ", "ǰ"], 6);
      const cases = sample(text, 200).map((s) => ({
        template: "{{ s.capitalize() }}|{{ s.title() }}|{{ s|capitalize }}",
        context: { s },
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("has isascii, isidentifier, isprintable, format_map, maketrans and translate", () => {
      const text = tricky(
        ["a", "Z", "_", "1", " ", "é", "\t", "\u200b", "\u00a0", "😀", "{", "}", "x", "\u0301"],
        6,
      );
      const methods = fc.constantFrom(
        "s.isascii()",
        "s.isidentifier()",
        "s.isprintable()",
        "'<{x}>'.format_map({'x': s})",
        "s.translate(''.maketrans('a_1', 'b-2', 'x'))",
        "s.translate({97: 'AA', 95: none})",
        "s.translate(''.maketrans({'a': 'Q', 'Z': none}))",
      );
      const cases = sample(fc.tuple(text, methods), 200).map(([s, method]) => ({
        template: `{{ ${method} }}`,
        context: { s },
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("gives macros Jinja2's attributes and dicts fromkeys", () => {
      const macro = fc.record({
        params: fc.uniqueArray(fc.constantFrom("a", "b", "c"), { maxLength: 3 }),
        varargs: fc.boolean(),
        kwargs: fc.boolean(),
        caller: fc.boolean(),
      });
      const cases: OracleCase[] = sample(macro, 60).map(({ params, varargs, kwargs, caller }) => ({
        template:
          `{% macro m(${params.join(", ")}) %}${varargs ? "{{ varargs }}" : ""}${kwargs ? "{{ kwargs }}" : ""}` +
          `${caller ? "{{ caller() }}" : ""}{% endmacro %}` +
          "{{ m.name }}|{{ m.arguments }}|{{ m.catch_varargs }}|{{ m.catch_kwargs }}|{{ m.caller }}",
      }));
      cases.push(
        { template: "{{ dict.fromkeys(['a', 'b']) }}|{{ {}.fromkeys('xy', 0) }}|{{ dict.fromkeys([]) }}" },
        { template: "{{ dict.fromkeys([[1]]) }}" },
      );
      expect(differences(cases)).toEqual([]);
    });

    it("makes select, reject, selectattr, rejectattr and map generators: truthy, no len(), consumed once", () => {
      const producer = fc.constantFrom(
        "l|select('even')",
        "l|reject('odd')",
        "l|select",
        "msgs|selectattr('role', 'eq', 'user')",
        "msgs|rejectattr('role', 'eq', 'user')",
        "l|map('string')",
        "msgs|map(attribute='role')",
        "[]|select",
      );
      const use = fc.constantFrom(
        "{% if g %}y{% else %}n{% endif %}",
        "{{ g|length }}",
        "{{ g|list }}{{ g|list }}",
        "{{ g == g|list }}|{{ g|list == g|list }}",
        "{{ g|first }}|{{ g|list }}",
        "{{ g|last }}",
        "{{ g|tojson }}",
        "{{ g|join(',') }}",
        "{{ g is iterable }}{{ g is sequence }}{{ g is mapping }}",
        "{% for x in g %}{{ loop.length }}{% else %}E{% endfor %}{% for x in g %}{{ x }}{% else %}E{% endfor %}",
        "{{ 2 in g }}{{ g|list }}",
        "{{ g|sort|list }}{{ g|count }}",
        "{{ (g|list)[0] }}",
      );
      const cases = sample(fc.tuple(producer, use), 150).map(([made, body]) => ({
        template: `{% set g = ${made} %}${body}`,
        context: { l: [1, 2, 3], msgs: [{ role: "user" }, { role: "assistant" }] },
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("makes items, batch, slice and unique generators and reverse an iterator: no len(), read once", () => {
      // Reprs print an address, which differs run to run: the uses never print an iterator itself.
      const producer = fc.constantFrom(
        "d|items",
        "{}|items",
        "u|items",
        "l|items",
        "l|batch(2)",
        "l|batch(2, 'x')",
        "l|batch(0)",
        "5|batch(2)",
        "l|slice(2)",
        "l|slice(2, 0)",
        "l|slice(0)",
        "l|unique",
        "t|unique",
        "l|reverse",
        "t|reverse",
        "d|reverse",
        "range(3)|reverse",
        "u|reverse",
        "'ab'|reverse",
        "'ab'|safe|reverse",
        "l|map('string')|reverse",
        "5|reverse",
        "none|reverse",
      );
      const use = fc.constantFrom(
        "{% if g %}y{% else %}n{% endif %}",
        "{{ g|length }}",
        "{{ g|count }}",
        "{{ g|list }}{{ g|list }}",
        "{{ g|first }}|{{ g|list }}",
        "{{ g|last }}",
        "{{ g|tojson }}",
        "{{ g|join(',') }}",
        "{{ g|random is defined }}",
        "{{ g is iterable }}{{ g is sequence }}{{ g is string }}",
        "{% for x in g %}{{ loop.length }}{% else %}E{% endfor %}{% for x in g %}{{ x }}{% else %}E{% endfor %}",
        "{{ 2 in g }}{{ g|list }}",
        "{{ g|sort }}",
        "{{ g == g }}",
      );
      const cases: OracleCase[] = sample(fc.tuple(producer, use), 250).map(([made, body]) => ({
        template: `{% set g = ${made} %}${body}`,
        context: { l: [3, 1, 2, 1], t: ["b", "a", "b"], d: { b: 1, a: 2 } },
      }));
      cases.push({ template: "{{ d|items|length }}", context: { d: { a: 1 } } });
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });

    it("sorts by several attributes, `attribute='a,b'`, as Jinja2's make_multi_attrgetter", () => {
      const item = fc.record({
        a: fc.constantFrom(1, 2, "x", "X", "y"),
        b: fc.constantFrom(1, 2, 3),
        c: fc.record({ d: fc.constantFrom("p", "Q", "q") }),
      });
      const attribute = fc.constantFrom(
        "a,b",
        "b,a",
        "b,c.d",
        "c.d,b",
        "a,b,c.d",
        "b",
        "b,",
        ",b",
        "b, a",
        "b,zz",
      );
      const args = fc.constantFrom(
        "",
        ", reverse=true",
        ", case_sensitive=true",
        ", reverse=true, case_sensitive=true",
      );
      const cases = sample(fc.tuple(fc.array(item, { maxLength: 6 }), attribute, args), 250).map(
        ([items, attr, more]) => ({
          template: `{% for x in items|sort(attribute='${attr}'${more}) %}{{ x.a }}{{ x.b }}{{ x.c.d }};{% endfor %}`,
          context: { items },
        }),
      );
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });

    it("keeps range() a range: prints as range(0, 3), slices to a range, mixes with no list", () => {
      const bound = fc.integer({ min: -6, max: 6 });
      const made = fc.oneof(
        bound.map((stop) => `range(${stop})`),
        fc.tuple(bound, bound).map(([start, stop]) => `range(${start}, ${stop})`),
        fc
          .tuple(
            bound,
            bound,
            bound.filter((step) => step !== 0),
          )
          .map(([start, stop, step]) => `range(${start}, ${stop}, ${step})`),
      );
      const index = fc.option(bound, { nil: undefined }).map((i) => (i === undefined ? "" : String(i)));
      const slice = fc
        .tuple(index, index, fc.constantFrom("", "1", "2", "-1", "-2", "3"))
        .map(([a, b, c]) => `[${a}:${b}${c === "" ? "" : `:${c}`}]`);
      const use = fc.constantFrom(
        "{{ r }}",
        "{{ r|list }}",
        "{{ [r, (r,)] }}|{{ {'k': r} }}",
        "{{ r ~ '' }}|{{ r|string }}|{{ r|pprint }}",
        "{{ r == r|list }}|{{ r == range(0) }}|{{ r == r }}",
        "{{ r.start }} {{ r.stop }} {{ r.step }}",
        "{{ r|length }}{{ r|first }}{{ r|last }}",
        "{{ r + [1] }}",
        "{{ [1] + r }}",
        "{{ r * 2 }}",
        "{{ r|tojson }}",
        "{{ r < r }}",
        "{{ r.index(0) }}",
        "{{ r.count(1) }}|{{ r.append }}",
        "{{ r|sort }}|{{ r|sum }}",
      );
      const cases = sample(fc.tuple(made, fc.option(slice, { nil: undefined }), use), 250).map(
        ([range, sliced, body]) => ({ template: `{% set r = ${range}${sliced ?? ""} %}${body}` }),
      );
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });

    it("keeps a dict's insertion order with integer-like keys, through every way of listing it", () => {
      const key = fc.constantFrom("0", "1", "2", "10", "07", "-1", "a", "b", "1a", "4294967295");
      const entries = fc.array(fc.tuple(key, fc.integer({ min: 0, max: 9 })), { maxLength: 6 });
      const made = entries.chain((pairs) => {
        const literal = `{${pairs.map(([k, v]) => `'${k}': ${v}`).join(", ")}}`;
        return fc.constantFrom(
          literal,
          `dict(${literal}, z=1)`,
          `dict.fromkeys([${pairs.map(([k]) => `'${k}'`).join(", ")}], 0)`,
          `${literal}.copy()`,
        );
      });
      const use = fc.constantFrom(
        "{{ d }}",
        "{{ d|tojson }}",
        "{{ d|tojson(sort_keys=true) }}",
        "{{ d|list }}|{{ d.keys() }}|{{ d.values() }}",
        "{{ d.items()|list }}|{{ d|items|list }}",
        "{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}",
        "{{ d|dictsort(by='value') }}",
        "{{ d|urlencode }}|{{ d|xmlattr }}",
        "{{ d|first }}|{{ d|pprint }}",
        "{% macro m() %}{{ kwargs }}{% endmacro %}{{ m(**d) }}",
      );
      const cases = sample(fc.tuple(made, use), 200).map(([dict, body]) => ({
        template: `{% set d = ${dict} %}${body}`,
      }));
      expect(differences(cases)).toEqual([]);
    });

    it("encodes str to bytes and back: repr, codecs, error handlers, bytes as a sequence", () => {
      const text = tricky(["a", "'", '"', "\\", "\n", "\t", "é", "ÿ", "€", "😀", "\x00", "\x7f"], 6);
      const codec = fc.constantFrom("", "'utf-8'", "'UTF8'", "'ascii'", "'latin-1'", "'iso-8859-1'", "'l1'");
      const handler = fc.constantFrom(
        "",
        "'strict'",
        "'ignore'",
        "'replace'",
        "'backslashreplace'",
        "'xmlcharrefreplace'",
      );
      const use = fc.constantFrom(
        "{{ b }}",
        "{{ b|length }}|{{ b|list }}|{{ b[0] }}|{{ b[1:] }}|{{ b[::-1] }}",
        "{{ b.decode() }}",
        "{{ b.decode('utf-8', 'replace') }}|{{ b.decode('latin-1') }}|{{ b.decode('ascii', 'ignore') }}",
        "{{ b[:3].decode('utf-8', 'backslashreplace') }}|{{ b.hex() }}",
        "{{ b == b }}|{{ b + b }}|{{ b * 2 }}|{{ 97 in b }}|{{ [b] }}|{% if b %}y{% endif %}",
        "{{ b|tojson }}",
      );
      const cases = sample(fc.tuple(text, codec, handler, use), 250).map(([t, c, h, body]) => ({
        template: `{% set b = s.encode(${c}${c && h ? `, ${h}` : ""}) %}${body}`,
        context: { s: t },
      }));
      expect(differences(cases, { sameErrors: true })).toEqual([]);
    });
  },
);

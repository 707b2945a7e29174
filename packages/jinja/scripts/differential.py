#!/usr/bin/env python3
"""Differential cases: randomly generated templates (expressions, then statements and whitespace
control) rendered by Jinja2 with transformers' configuration. Deterministic for a given seed.

Usage: differential.py SEED COUNT  ->  JSON {"expressions", "statements", "strings", "collections": {context, cases}}
"""

import copy
import importlib.util
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("make_goldens", os.path.join(HERE, "make-goldens.py"))
make_goldens = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_goldens)
env = make_goldens.make_environment()

EXPR_CTX = {"s": "Hello World", "t": "  a,b ,c  ", "n": 7, "m": -3, "f": 2.5, "z": 0, "l": [3, 1, 2], "ls": ["b", "A", "c"],
       "d": {"b": 2, "a": 1}, "none": None, "yes": True, "no": False, "e": "", "el": [], "u": "ünï😀",
       "msgs": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo", "tool_calls": [{"function": {"name": "f", "arguments": {"x": 1}}}]}]}
STMT_CTX = {"items": [1, 2, 3], "words": ["a", "bb", "ccc"], "msgs": [{"role": "system", "content": "S"}, {"role": "user", "content": "U1"}, {"role": "assistant", "content": "A1"}, {"role": "user", "content": "U2"}],
       "d": {"x": 1, "y": [1, 2]}, "flag": True, "name": "N", "tree": [{"n": "a", "c": [{"n": "b", "c": []}]}, {"n": "d", "c": []}]}

LITS = ["0", "1", "-1", "2", "3", "0.5", "1.0", "2.0", "1e3", "'a'", "'abc'", "''", "'A b'", "none", "true", "false", "[]", "[1, 2]", "['x', 'y']", "{}", "{'k': 1}", "(1, 2)", "(1,)"]
VARS = [k for k in EXPR_CTX if k != "none"] + ["undef", "msgs[0]", "msgs[1].tool_calls[0].function", "d.a", "d['b']", "l[0]", "l[-1]", "s[1:3]", "s[::-1]", "l[::2]", "msgs|last", "msgs[0].content"]
BIN = ["+", "-", "*", "/", "//", "%", "~", "==", "!=", "<", ">", "<=", ">=", "and", "or", "in", "not in", "**"]
FILTERS = ["length", "upper", "lower", "title", "capitalize", "trim", "first", "last", "list", "string", "int", "float", "abs", "round", "tojson", "sort", "unique|list", "reverse|list", "join(',')", "join", "default('D')", "d(0, true)", "count", "sum", "min", "max", "items|list", "dictsort", "replace('a', 'b')", "center(9)", "indent(2)", "truncate(8)", "wordcount", "batch(2)|list", "slice(2)|list", "map('string')|list", "select|list", "reject|list", "tojson(indent=1)", "pprint", "e", "safe", "striptags", "urlencode", "format(1)", "attr('x')", "map(attribute='role')|list", "selectattr('role', 'eq', 'user')|list", "groupby('role')|list"]
TESTS = ["defined", "undefined", "none", "string", "number", "integer", "float", "mapping", "iterable", "sequence", "boolean", "true", "false", "odd", "even", "divisibleby(2)", "eq(1)", "lt(3)", "in([1, 2])", "upper", "lower", "callable", "sameas(none)"]
METHODS = ["upper()", "lower()", "strip()", "split()", "split(',')", "startswith('H')", "endswith('d')", "replace('o', '0')", "find('o')", "count('l')", "title()", "capitalize()", "lstrip('H')", "rstrip('d')", "isdigit()", "join(['1', '2'])", "format(1, 2)", "items()", "keys()", "values()", "get('a')", "get('zz', 5)", "index(1)", "splitlines()", "zfill(5)", "center(7, '*')", "partition(' ')"]

# Compound expressions, drawn by one random number against these cumulative bounds; each form builds its
# operands one level deeper.
EXPR_FORMS = [
    (0.45, lambda d: f"{expr(d)} {random.choice(BIN)} {expr(d)}"),
    (0.6, lambda d: f"{expr(d)}|{random.choice(FILTERS)}"),
    (0.68, lambda d: f"{expr(d)} is {random.choice(['', 'not '])}{random.choice(TESTS)}"),
    (0.76, lambda d: f"({expr(d)}).{random.choice(METHODS)}"),
    (0.82, lambda d: f"not {expr(d)}"),
    (0.88, lambda d: f"{expr(d)} if {expr(d)} else {expr(d)}"),
    (0.94, lambda d: f"[{expr(d)}, {expr(d)}]"),
]

def expr(depth=0):
    r = random.random()
    if depth > 2 or r < 0.25:
        return random.choice(LITS + VARS + VARS)
    for bound, form in EXPR_FORMS:
        if r < bound:
            return form(depth + 1)
    # Subscripts apply to variables only: Jinja2 constant-folds literal subscripts at compile time,
    # turning errors into undefined values, which a renderer without an optimizer cannot mirror.
    idx = random.choice(['0', '-1', '1:', ':2', "'a'", 'n'])
    return f"{random.choice(VARS)}[{idx}]"

def stmt():
    r = random.random()
    e = expr()
    if r < 0.6:
        return "{{ " + e + " }}"
    if r < 0.75:
        return "{% for x in " + e + " %}[{{ x }}{{ loop.index }}]{% else %}E{% endfor %}"
    if r < 0.9:
        return "{% if " + e + " %}T{% else %}F{% endif %}"
    return "{% set v = " + e + " %}{{ v }}"



def expr_template():
    return " | ".join(stmt() for _ in range(random.randint(1, 2)))


WS_OPEN = ["{%", "{%-", "{%+", "{%", "{%"]
WS_CLOSE = ["%}", "-%}", "%}", "+%}"]
VOPEN = ["{{", "{{-", "{{"]
VCLOSE = ["}}", "-}}", "}}"]
TEXT = ["", "x", " ", "\n", "  \n", "\n  ", "\t", "a b", " \n \n", "\n\n"]
EXPRS = ["loop.index", "loop.first", "loop.last", "loop.length", "loop.revindex0", "loop.cycle('o', 'e')", "x", "m.role", "m['content']", "ns.c", "name", "i ~ '-'", "x * 2", "loop.depth", "loop.previtem", "loop.nextitem"]

def text():
    return random.choice(TEXT)

def var(e=None):
    return random.choice(VOPEN) + " " + (e or random.choice(EXPRS)) + " " + random.choice(VCLOSE)

def tag(body):
    return random.choice(WS_OPEN) + " " + body + " " + random.choice(WS_CLOSE)

def block(depth):
    parts = []
    for _ in range(random.randint(1, 3)):
        r = random.random()
        if depth > 2 or r < 0.35:
            parts.append(text() + var() + text())
        elif r < 0.5:
            parts.append(tag("for x in items") + block(depth + 1) + (tag("else") + text() if random.random() < 0.2 else "") + tag("endfor"))
        elif r < 0.6:
            parts.append(tag("for m in msgs" + random.choice(["", " if m.role != 'system'", " if loop is not defined"])) + block(depth + 1) + tag("endfor"))
        elif r < 0.7:
            parts.append(tag("if " + random.choice(["flag", "not flag", "x is defined and x > 1", "loop is defined and loop.last", "m is defined and m.role == 'user'"])) + block(depth + 1) + (tag("elif name") + text() if random.random() < 0.3 else "") + (tag("else") + block(depth + 1) if random.random() < 0.4 else "") + tag("endif"))
        elif r < 0.78:
            parts.append(tag("set ns.c = ns.c + 1") + text())
        elif r < 0.84:
            parts.append(tag("if x is defined and x == 2") + tag(random.choice(["break", "continue"])) + tag("endif") if depth > 0 else text())
        elif r < 0.9:
            parts.append(tag("macro mm(a, b='B')") + text() + var("a ~ b") + block(depth + 1) + tag("endmacro") + var("mm(" + random.choice(["1", "'q'", "name", "1, 2"]) + ")"))
        elif r < 0.95:
            parts.append(tag("set blk") + block(depth + 1) + tag("endset") + var("blk|length"))
        else:
            parts.append("{# c #}" + text() + "{#- c -#}" + text())
    return "".join(parts)



def stmt_template():
    return "{% set ns = namespace(c=0) %}" + text() + block(0) + text() + var("ns.c")


# str methods, string filters and number formatting called with random strings and arguments: Unicode (astral, ß, digraphs, Python-only
# whitespace) and out-of-range or crossing start/end indices are where JS and Python differ.
STR_PARTS = ["a", "B", "ab", " ", "\t", "\n", "\r\n", "-", "é", "ß", "😀", "1", "Ǆ", "\x1c", "İ"]


def rand_str(n):
    return "".join(random.choice(STR_PARTS) for _ in range(random.randint(0, n)))


def rand_bounds():
    return [random.randint(-5, 5) for _ in range(random.randint(0, 2))]


STR_METHODS = {
    "center": lambda: [random.randint(-1, 9)] + ([random.choice(["*", "é"])] if random.random() < 0.5 else []),
    "ljust": lambda: [random.randint(-1, 9)],
    "rjust": lambda: [random.randint(-1, 9), "0"],
    "zfill": lambda: [random.randint(-1, 9)],
    "find": lambda: [rand_str(2)] + rand_bounds(),
    "rfind": lambda: [rand_str(2)] + rand_bounds(),
    "count": lambda: [rand_str(2)] + rand_bounds(),
    "startswith": lambda: [rand_str(2)] + rand_bounds(),
    "endswith": lambda: [rand_str(2)] + rand_bounds(),
    "strip": lambda: [] if random.random() < 0.5 else [rand_str(2)],
    "lstrip": lambda: [] if random.random() < 0.5 else [rand_str(2)],
    "rstrip": lambda: [] if random.random() < 0.5 else [rand_str(2)],
    "split": lambda: [random.choice([None, "a", "-", "ab", " "]), random.randint(-1, 3)],
    "rsplit": lambda: [random.choice([None, "a", "-", "ab", " "]), random.randint(-1, 3)],
    "splitlines": lambda: [] if random.random() < 0.5 else [random.choice([True, False])],
    "partition": lambda: [random.choice(["a", "-", "ab"])],
    "rpartition": lambda: [random.choice(["a", "-", "ab"])],
    "replace": lambda: [rand_str(2), random.choice(["", "X"]), random.choice([-1, 0, 1, 2, 9])],
    "expandtabs": lambda: [random.choice([-1, 0, 1, 4, 8])],
    "removeprefix": lambda: [rand_str(2)],
    "removesuffix": lambda: [rand_str(2)],
    **{name: lambda: [] for name in ["title", "capitalize", "swapcase", "upper", "lower", "casefold", "isupper",
                                     "islower", "istitle", "isspace", "isalpha", "isdigit", "isalnum", "isnumeric",
                                     "isdecimal"]},
}


# String filters with random arguments (wordwrap is left out: textwrap's rules are not reproduced).
STR_FILTERS = {
    "center": lambda: [random.randint(-2, 20)],
    "indent": lambda: [random.choice([0, 2, "> "]), random.choice([True, False]), random.choice([True, False])],
    "truncate": lambda: [random.randint(3, 12), random.choice([True, False]), random.choice(["...", "~"]),
                         random.randint(0, 5)],
    "trim": lambda: [] if random.random() < 0.5 else [rand_str(2)],
    "replace": lambda: [rand_str(2), "X"] + ([random.randint(-1, 3)] if random.random() < 0.5 else []),
    "filesizeformat": lambda: [random.choice([True, False])],
    **{name: lambda: [] for name in ["title", "capitalize", "upper", "lower", "striptags", "wordcount",
                                     "urlencode", "length", "escape", "first", "last", "int", "float"]},
}
NUMBER_TEXTS = ["12", " 3.5 ", "-0", "1e3", "0x1F", "1_000", "abc", "12345678", "-2.5e-3", "inf", "nan", "-inf"]


def literal(v):
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


FORMAT_VALUES = ["0", "-0.0", "1", "-1", "255", "-255", "1.5", "-1.5", "0.125", "2.5", "1e22", "-1e22", "123456.789",
                 "-0.001", "1e-7", "true", "'abc'", "'é😀'", "none"]
PERCENT_FLAGS = ["", "+", " ", "-", "0", "5", "-8", "08", ".3", "+.2", "#", "#08", "#.3", "-#8"]
FORMAT_SPECS = ["", "d", "x", "X", "o", "b", "e", "E", "f", "F", ".2f", ".0f", "g", ".3", "10.2e", "+d", " f", ",",
                "_d", "%", ".1%", "08.3f", "^10", "<5", "=+8d", "#x", "n", "*^9", "s", ".2", "+.3e", ",.2f", "G",
                ".1g", "010", "#o", "#b", "#08x", "#g", "#.3g", "#010X", "=#10x", "_x", ",.3%", ".0%", "+#.0f"]


def format_template():
    value = random.choice(FORMAT_VALUES)
    if random.random() < 0.5:
        return "{{ '%%%s%s' %% %s }}" % (random.choice(PERCENT_FLAGS), random.choice("diouxXeEfFgGcrs"), value)
    return "{{ '{:%s}'.format(%s) }}" % (random.choice(FORMAT_SPECS), value)


def str_method_template():
    if random.random() < 0.2:
        return format_template()
    if random.random() < 0.4:
        name = random.choice(sorted(STR_FILTERS))
        numeric = name in ("int", "float", "filesizeformat") and random.random() < 0.7
        value = random.choice(NUMBER_TEXTS) if numeric else rand_str(6) + random.choice(["", "<b>", "&amp;", " x"])
        args = STR_FILTERS[name]()
        call = "%s(%s)" % (name, ", ".join(literal(a) for a in args)) if args else name
        return "{{ %s|%s }}" % (literal(value), call)
    name = random.choice(sorted(STR_METHODS))
    args = ", ".join(literal(a) for a in STR_METHODS[name]())
    return "{{ %s.%s(%s) }}" % (literal(rand_str(6)), name, args)


# Sequence and dict filters over random nested data (one shared context of values, indexed by the cases).
def rand_value(depth=0):
    r = random.random()
    if depth > 1 or r < 0.5:
        return random.choice([0, 1, -2, 3, "a", "B", "b", "", "é", None, True, False, 2.5])
    if r < 0.75:
        return [rand_value(depth + 1) for _ in range(random.randint(0, 4))]
    return {random.choice(["a", "b", "role", "c", "B"]): rand_value(depth + 1) for _ in range(random.randint(0, 3))}


COLLECTION_FILTERS = ["sort", "sort(reverse=true)", "sort(case_sensitive=true)", "sort(attribute='a')", "unique",
                      "unique(case_sensitive=true)", "min", "max", "min(attribute='a')", "sum", "sum(start=10)",
                      "join('-')", "join(',', attribute='a')", "first", "last", "length", "list", "reverse",
                      "batch(2)", "batch(2, 'x')", "slice(2)", "slice(3, 0)", "map('string')", "map(attribute='a')",
                      "map(attribute='a', default='D')", "select", "reject", "select('string')", "reject('none')",
                      "selectattr('a')", "rejectattr('a', 'eq', 1)", "selectattr('role', 'equalto', 'a')",
                      "groupby('a')", "dictsort", "dictsort(by='value')", "dictsort(true, 'value', true)", "items",
                      "tojson", "tojson(indent=2)", "tojson(sort_keys=true)", "pprint", "string", "count",
                      "xmlattr", "urlencode", "abs", "int", "float", "round", "default('x')", "trim", "wordcount"]
LAZY = ("sort", "unique", "reverse", "batch", "slice", "map", "select", "reject", "selectattr", "rejectattr",
        "groupby", "items", "dictsort")
COLLECTION_CTX = {"vals": []}


def collection_template():
    if not COLLECTION_CTX["vals"]:
        COLLECTION_CTX["vals"] = [rand_value() for _ in range(300)]
    f = random.choice(COLLECTION_FILTERS)
    lazy = "|list" if f.split("(")[0] in LAZY else ""
    return "{{ vals[%d]|%s%s }}" % (random.randrange(len(COLLECTION_CTX["vals"])), f, lazy)


def render_cases(make, context, count):
    cases = []
    for _ in range(count):
        src = make()
        case = {"template": src}
        try:
            case["output"] = env.from_string(src).render(**copy.deepcopy(context))
        except Exception as ex:  # noqa: BLE001 - any failure is an expectation
            case["error"] = type(ex).__name__ + ": " + str(ex)
        cases.append(case)
    return {"context": context, "cases": cases}


def main():
    import warnings

    warnings.simplefilter("ignore")
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    random.seed(seed)
    result = {
        "expressions": render_cases(expr_template, EXPR_CTX, count),
        "statements": render_cases(stmt_template, STMT_CTX, count // 2),
        "strings": render_cases(str_method_template, {}, count * 2),
        "collections": render_cases(collection_template, COLLECTION_CTX, count * 2),
    }
    json.dump(result, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()

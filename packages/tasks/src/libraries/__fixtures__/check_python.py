"""Checks generated Python snippets in one process (driven by snippets-compile.test.ts).

stdin: {"marker": str, "snippets": {key: code}, "pairs": [[benign_key, hostile_key], ...]}
stdout: {"syntax": {key: error}, "pairs": [[benign_key, hostile_key, reason], ...]}

A pair matches when both snippets have the same syntax tree once constants are masked, and the hostile
snippet's constants, with the marker removed, equal the benign ones: the hostile text stayed inside literals.
"""
import ast
import json
import sys


def shape(code):
    tree = ast.parse(code)
    constants = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant):
            constants.append(node.value)
            node.value = "<%s>" % type(node.value).__name__
    return ast.dump(tree), constants


def main():
    request = json.loads(sys.stdin.read())
    marker = request["marker"]
    syntax, shapes = {}, {}
    for key, code in request["snippets"].items():
        try:
            shapes[key] = shape(code)
        except SyntaxError as error:
            syntax[key] = "%s (line %s)" % (error.msg, error.lineno)
    mismatches = []
    for benign, hostile in request["pairs"]:
        if benign not in shapes or hostile not in shapes:
            continue
        (tree_b, consts_b), (tree_h, consts_h) = shapes[benign], shapes[hostile]
        if tree_b != tree_h:
            mismatches.append([benign, hostile, "syntax trees differ"])
            continue
        restored = [c.replace(marker, "") if isinstance(c, str) else c for c in consts_h]
        if restored != consts_b:
            mismatches.append([benign, hostile, "constants differ: %r vs %r" % (consts_b, consts_h)])
    json.dump({"syntax": syntax, "pairs": mismatches}, sys.stdout, ensure_ascii=True)


main()

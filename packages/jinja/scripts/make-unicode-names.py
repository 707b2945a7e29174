#!/usr/bin/env python3
"""Writes src/lexer/unicode-names.json: every name Python's `\\N{...}` escape accepts that is not algorithmic
(CJK unified ideographs and Hangul syllables are computed in src/lexer/unicode-names.ts), aliases
included, for the Unicode version of this Python (Jinja2 decodes string literals with Python's
unicode-escape codec). Aliases come from Perl's unicore/Name.pl when it is installed (Python cannot list
them); every name written is checked against the codec itself.

Format: {"unicode": VERSION, "names": LINES}, one name a line in code point order; a line is NAME when
its code point is the previous line's plus one, else HEX:NAME with HEX the difference (0 for an alias).

Usage: python3 scripts/make-unicode-names.py
"""

import glob
import json
import os
import re
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "src", "lexer", "unicode-names.json")
ALGORITHMIC = re.compile(r"^(CJK UNIFIED IDEOGRAPH-|HANGUL SYLLABLE )")


def accepted(name, cp):
    try:
        return (b"\\N{" + name.encode("ascii") + b"}").decode("unicode-escape") == chr(cp)
    except (UnicodeDecodeError, UnicodeEncodeError):
        return False


def main():
    entries = set()
    for cp in range(0x110000):
        name = unicodedata.name(chr(cp), None)
        if name is not None and not ALGORITHMIC.match(name):
            entries.add((cp, name))
    for path in sorted(glob.glob("/usr/share/perl/*/unicore/Name.pl"))[-1:]:
        text = open(path, encoding="ascii").read()
        for cps, name in re.findall(r"^([0-9A-F]{4,6})\n([^\n]+)\n", text, re.M):
            cp = int(cps, 16)
            if not ALGORITHMIC.match(name) and accepted(name, cp):
                entries.add((cp, name))
    lines = []
    previous = -1
    for cp, name in sorted(entries):
        assert ":" not in name and accepted(name, cp), name
        lines.append(name if cp == previous + 1 else "%x:%s" % (cp - previous, name))
        previous = cp
    with open(OUT, "w", encoding="ascii") as f:
        json.dump({"unicode": unicodedata.unidata_version, "names": "\n".join(lines)}, f)
        f.write("\n")
    print(f"{len(lines)} names -> {OUT}")


if __name__ == "__main__":
    main()

import fc from "fast-check";

/**
 * The one hostile-input corpus: texts a hostile or careless model record, widget example or request could
 * carry into generated code in any language. Every quoting function is run on these through the real
 * interpreters (python3, node, bash).
 */
export const HOSTILE_TEXTS: readonly string[] = [
  `acme/model"; import os; os.system("echo pwned") #`,
  `acme/model'); __import__('os').system('id'); ('`,
  "acme/$(touch /tmp/pwned)`id`${HOME}",
  "back\\slash\\\\and\\n not a newline \\",
  'tri"""ple\'\'\'quotes',
  "line one\nline two\r\nline three\u2028separator\u2029paragraph",
  "tab\there, nul \u0000, bell \u0007, escape \u001b[31m",
  "non-ASCII: héllo wörld 日本語 🤗 \u200b zero-width \ufeff bom",
  "lone surrogate \ud800 end",
  "</script><!-- --> */ // # comment",
  "'; rm -rf / #",
  "$HOME ${HOME} $(id) `id` ~root *.gguf {a,b} [x]",
  "{braces} {{double}} %s %(x)s",
  "bidi \u202e override \u2066 isolate, astral format \u{e0001} and private use \u{f0000}",
  "C1 \u0085 next line and \u009b CSI",
  "'",
  '"',
  "\\",
  "",
];

/**
 * A few texts that together hold every hazard above, for checks that render every library with every
 * field hostile (kept short: each text multiplies the number of snippets rendered).
 */
export const COMBINED_HOSTILE_TEXTS: readonly string[] = [
  `a"b'c\\d$(touch /tmp/pwned)\`id\`\${HOME}\n# x\r\u2028\u0007\u001b[31m héllo 日本語 🤗 */ -->\\`,
  "lone surrogate \ud800 and tab\t",
  "",
];

/** The corpus plus random strings (fixed seeds: deterministic), for checks that run every text. */
export const QUOTING_SAMPLES: readonly string[] = [
  ...HOSTILE_TEXTS,
  ...fc.sample(fc.string({ unit: "binary", maxLength: 40 }), { numRuns: 300, seed: 42 }),
  ...fc.sample(fc.string({ unit: "grapheme-composite", maxLength: 20 }), { numRuns: 100, seed: 7 }),
];

/** Texts a hostile or careless model record could carry into generated code. */
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
  "'",
  '"',
  "\\",
  "",
];

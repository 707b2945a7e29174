import type { CodeLanguage } from "../../components/ui/code-block.js";

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp|ico)$/i;
const PYTHON = /\.(py|pyi|ipynb)$/i;
const JS = /\.(js|mjs|cjs|ts|tsx|jsx|json|jsonl)$/i;
const SHELL = /\.(sh|bash|zsh)$/i;

/** Text files are coloured only below this size: highlighting is linear but not free. */
export const MAX_HIGHLIGHT_BYTES = 200_000;

export function isImagePath(path: string): boolean {
  return IMAGE.test(path);
}

/** The highlighter's language for a file name, from its extension. */
export function languageOf(path: string): CodeLanguage {
  if (PYTHON.test(path)) return "python";
  if (JS.test(path)) return "js";
  if (SHELL.test(path)) return "sh";
  return "plain";
}

/** Whether bytes look like text: no NUL in the first 8 kB (git's own test). */
export function looksLikeText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 8000).includes(0);
}

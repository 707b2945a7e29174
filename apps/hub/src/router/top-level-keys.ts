/**
 * The keys of a JSON object's top level in the order written, repeats included (JSON.parse keeps only the
 * last of a repeated key; some servers read the first). `text` must be a JSON object JSON.parse accepts.
 */
export function topLevelKeys(text: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"') {
      const end = stringEnd(text, at);
      if (depth === 1 && nextNonSpace(text, end) === ":")
        keys.push(JSON.parse(text.slice(at, end)) as string);
      at = end;
      continue;
    }
    if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") depth--;
    at++;
  }
  return keys;
}

/** The index just after the string literal that opens at `start`. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length && text[at] !== '"') at += text[at] === "\\" ? 2 : 1;
  return at + 1;
}

function nextNonSpace(text: string, from: number): string | undefined {
  let at = from;
  while (
    at < text.length &&
    (text[at] === " " || text[at] === "\t" || text[at] === "\n" || text[at] === "\r")
  )
    at++;
  return text[at];
}

/**
 * A small highlighter for shell commands (sugar-high reads JavaScript): comments, quoted strings,
 * options and variables. It escapes every character it emits, so the result is safe as HTML.
 */
const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const TOKEN = /(^|\s)(#.*)$|('[^']*'?|"(?:\\.|[^"\\])*"?)|((?<=^|\s)--?[\w-]+)|(\$\{?\w+\}?)/gm;

function span(kind: string, text: string): string {
  return `<span style="color:var(--sh-${kind})">${escapeHtml(text)}</span>`;
}

export function highlightShell(code: string): string {
  let html = "";
  let last = 0;
  for (const match of code.matchAll(TOKEN)) {
    const [whole, lead = "", comment, quoted, option, variable] = match;
    const start = match.index ?? 0;
    html += escapeHtml(code.slice(last, start));
    if (comment !== undefined) html += escapeHtml(lead) + span("comment", comment);
    else if (quoted !== undefined) html += span("string", quoted);
    else if (option !== undefined) html += span("property", option);
    else if (variable !== undefined) html += span("class", variable);
    last = start + whole.length;
  }
  return html + escapeHtml(code.slice(last));
}

/**
 * sugar-high has no `#` comments: Python comment lines are shown to it as `//` comments and the
 * marker is put back afterwards.
 */
export function asSlashComments(code: string): string {
  return code.replace(/^(\s*)#/gm, "$1//");
}

export function restoreHashComments(html: string): string {
  return html.replace(/(<span class="sh__token--comment"[^>]*>)\/\//g, "$1#");
}

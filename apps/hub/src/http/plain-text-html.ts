/** Text made safe to place in HTML: every character HTML gives a meaning to is a character reference. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Plain text (a commit message, a comment) as the HTML the public hub sends beside it (`formatted`, `html`):
 * escaped, a paragraph per blank-line-separated block, single line breaks kept. Never markup from the text.
 */
export function plainTextToHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block.length > 0)
    .map((block) => `<p>${escapeHtml(block).replace(/\n/g, "<br>\n")}</p>`)
    .join("\n");
}

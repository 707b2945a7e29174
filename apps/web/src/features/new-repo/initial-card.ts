import { hubSend } from "../../lib/api/hub-fetch.js";
import { type RepoRef, repoApiUrl } from "../../lib/repo-ref.js";

/**
 * A README whose front matter holds what the form chose (as the public hub's new-repository pages write
 * it). Values are written as JSON strings, which YAML reads as the same strings (a name like `1.0` stays
 * text).
 */
export function initialCard(fields: Record<string, string | boolean>): string {
  const lines = Object.entries(fields).map(
    ([key, value]) => `${key}: ${typeof value === "boolean" ? String(value) : JSON.stringify(value)}`,
  );
  return `---\n${lines.join("\n")}\n---\n`;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Commits README.md to main as the repository's first card. */
export async function commitInitialCard(repo: RepoRef, card: string, csrfToken: string): Promise<void> {
  await hubSend("POST", repoApiUrl(repo, "commit/main"), csrfToken, {
    ndjson: [
      { key: "header", value: { summary: "Add README.md", description: "" } },
      { key: "file", value: { path: "README.md", content: base64(card), encoding: "base64" } },
    ],
  });
}

/**
 * Golden files: the full output of a fixed set of calls, one markdown file per call in __goldens__/,
 * reviewed like code. After an intended change, regenerate with `npx vitest run --project snippets -u`
 * (or `npm test -- -u`) and read the diff.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { getInferenceSnippets } from "./generate.js";
import { GOLDEN_CASES, type GoldenCase } from "./testing/golden-cases.js";
import type { InferenceSnippet } from "./types.js";

const FENCE_LANGUAGE = { python: "python", js: "js", sh: "sh" } as const;

/** A fence longer than any backtick run in the code, so the markdown stays well formed. */
function fenceFor(code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  return "`".repeat(Math.max(3, longest + 1));
}

function describeCall(c: GoldenCase): string {
  const args = [
    JSON.stringify(c.model.id),
    c.accessToken === undefined ? "undefined" : JSON.stringify(c.accessToken),
    JSON.stringify(c.provider),
    c.providerModelId === undefined ? "undefined" : JSON.stringify(c.providerModelId),
    JSON.stringify(c.options ?? {}),
  ];
  const tags = c.model.tags.length > 0 ? `, tags ${c.model.tags.join(", ")}` : "";
  return [
    `Model: \`${c.model.id}\` (${c.model.pipeline_tag}${tags})`,
    "",
    `Call: \`getInferenceSnippets(${args.join(", ")})\``,
  ].join("\n");
}

function renderGolden(c: GoldenCase, snippets: InferenceSnippet[]): string {
  const parts = [`# ${c.name}`, "", describeCall(c), ""];
  if (snippets.length === 0) parts.push("_No snippets._", "");
  for (const snippet of snippets) {
    const fence = fenceFor(snippet.content);
    parts.push(`## ${snippet.language} · ${snippet.client}`, "");
    if (snippet.install) parts.push(`Install: \`${snippet.install}\``, "");
    parts.push(`${fence}${FENCE_LANGUAGE[snippet.language]}`, snippet.content.replace(/\n+$/, ""), fence, "");
  }
  return parts.join("\n");
}

const goldensDir = fileURLToPath(new URL("./__goldens__/", import.meta.url));

describe("snippet goldens", () => {
  it.each(GOLDEN_CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const snippets = getInferenceSnippets(c.model, c.accessToken, c.provider, c.providerModelId, c.options);
    await expect(renderGolden(c, snippets)).toMatchFileSnapshot(`./__goldens__/${c.name}.md`);
  });

  it("has no golden file without a case", () => {
    const names = new Set(GOLDEN_CASES.map((c) => `${c.name}.md`));
    expect(names.size).toBe(GOLDEN_CASES.length);
    let files: string[] = [];
    try {
      files = readdirSync(goldensDir).filter((file) => file.endsWith(".md"));
    } catch {
      // No directory yet: the first run with -u writes it.
    }
    expect(files.filter((file) => !names.has(file))).toEqual([]);
  });
});

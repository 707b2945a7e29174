import { describe, expect, it } from "vitest";
import { type RecordCase, recordsFor, withHostileTexts } from "./__fixtures__/records.js";
import { getLibrarySnippets } from "./model-libraries.js";

/**
 * Golden snippets over representative records (reviewed by hand; vitest file snapshots in __goldens__/).
 * Update after an intended change with `npx vitest run --project tasks -u`, then review the diff.
 */

const GOLDEN_CASES = [
  "transformers/text-generation",
  "transformers/conversational",
  "transformers/custom-code",
  "transformers/vision-language",
  "transformers/unknown-type",
  "peft/causal-lm",
  "peft/seq2seq",
  "peft/token-cls",
  "peft/seq-cls",
  "peft/invalid-task",
  "peft/no-base-model",
  "sklearn/skops-file",
  "sklearn/pickle-file",
  "sklearn/no-file",
  "sklearn/plain-joblib",
  "speechbrain/with-interface",
  "speechbrain/no-interface",
  "keras-hub/tasks",
  "adapter-transformers/with-base",
  "diffusers/lora",
  "diffusers/lora-no-base",
  "diffusers/text-to-image",
  "sentence-transformers/widget-sentences",
  "llama-cpp-python/chat-with-files",
] as const;

function findCase(name: string): RecordCase {
  const library = name.slice(0, name.lastIndexOf("/"));
  const found = recordsFor(library).find((c) => c.name === name);
  if (!found) throw new Error(`No record case ${name}`);
  return found;
}

function renderGolden(name: string, model: RecordCase["model"]): string {
  const header = [
    `# ${name}`,
    "",
    `library_name: ${model.library_name}, id: ${JSON.stringify(model.id)}, pipeline_tag: ${model.pipeline_tag ?? "-"}`,
  ];
  const blocks = getLibrarySnippets(model).map(
    (s) => `## ${s.title ?? "(untitled)"} [${s.language}]\n\n\`\`\`${s.language}\n${s.content}\n\`\`\``,
  );
  return `${[...header, "", blocks.join("\n\n")].join("\n")}\n`;
}

describe("library snippet goldens", () => {
  for (const name of GOLDEN_CASES) {
    it(name, async () => {
      const { model } = findCase(name);
      await expect(renderGolden(name, model)).toMatchFileSnapshot(
        `./__goldens__/${name.replace("/", "--")}.md`,
      );
    });
  }

  it("transformers/conversational with hostile texts (literals only)", async () => {
    const { model } = findCase("transformers/conversational");
    const hostile = withHostileTexts({ ...model, widgetData: [{ text: "Who are you?" }] });
    await expect(renderGolden("transformers/conversational (hostile)", hostile)).toMatchFileSnapshot(
      "./__goldens__/hostile--transformers-conversational.md",
    );
  });
});

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const fixtures = fileURLToPath(new URL("../../packages/jinja/src/__fixtures__/", import.meta.url));

export interface Pair {
  source: string;
  context: Record<string, unknown>;
}

/**
 * Every (corpus template, golden conversation) pair, with transformers' variables: tools/documents None
 * when absent, special tokens from the corpus entry.
 */
export function corpusPairs(): Pair[] {
  const corpus: { template: string; bos_token?: string; eos_token?: string }[] = JSON.parse(
    readFileSync(`${fixtures}chat-templates.json`, "utf8"),
  );
  const goldens = JSON.parse(readFileSync(`${fixtures}chat-goldens.json`, "utf8")) as {
    conversations: ({ id: string } & Record<string, unknown>)[];
  };
  const pairs: Pair[] = [];
  for (const entry of corpus) {
    for (const { id: _id, ...conversation } of goldens.conversations) {
      const context = {
        tools: null,
        documents: null,
        ...conversation,
        bos_token: entry.bos_token ?? "<|bos|>",
        eos_token: entry.eos_token ?? "<|eos|>",
      };
      pairs.push({ source: entry.template, context });
    }
  }
  return pairs;
}

import { existsSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { CHAT_MODEL, type ExecCase } from "./__fixtures__/exec-cases.js";
import { describeSnippetExecution } from "./testing/exec-suite.js";

/** Text that breaks out of a naively quoted string in Python, JavaScript or a shell. */
const HOSTILE =
  `It's "quoted" \\" and \\\\ back\\slash; $(touch pwned-subshell) \`touch pwned-backtick\` \${HOME} $HOME\n` +
  "second line\ttab '; touch pwned-quote #\r\nünïcödé 日本語 🤗 \u2028 {{ jinja }} {% raw %} %s";
const HOSTILE_PROVIDER_ID = `acme/model's "name" $(touch pwned-model) \`id\``;

const cases: ExecCase[] = ["together", "hf-inference"].map((provider) => ({
  model: CHAT_MODEL,
  provider,
  providerId: provider === "hf-inference" ? CHAT_MODEL.id : HOSTILE_PROVIDER_ID,
}));

for (const streaming of [false, true]) {
  describeSnippetExecution({
    title: `hostile text reaches the provider exactly (streaming: ${streaming})`,
    cases,
    options: { streaming, messages: [{ role: "user", content: HOSTILE }] },
    check(request, snippet, testCase, run) {
      const where = `${snippet.language}/${snippet.client}`;
      const body = request.json as { messages: Array<{ content: string }>; model?: string };
      expect(body.messages[0]?.content, where).toBe(HOSTILE);
      // Hub clients resolve the provider's own (hostile) id from the mapping and send it; OpenAI-style
      // snippets call the router's /v1 with the hub id and the provider (`id:provider`).
      const hubClient = snippet.client === "huggingface_hub" || snippet.client === "huggingface.js";
      if (testCase.provider === "together")
        expect(body.model, where).toBe(hubClient ? HOSTILE_PROVIDER_ID : `${CHAT_MODEL.id}:together`);
      for (const canary of ["pwned-subshell", "pwned-backtick", "pwned-quote", "pwned-model"]) {
        expect(existsSync(join(run.dir, canary)), `${where} ran ${canary}`).toBe(false);
      }
    },
  });
}

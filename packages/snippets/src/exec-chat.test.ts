import { CHAT_CASES } from "./__fixtures__/exec-cases.js";
import { describeSnippetExecution } from "./testing/exec-suite.js";

describeSnippetExecution({ title: "chat snippets run against provider-sim", cases: CHAT_CASES });
describeSnippetExecution({
  title: "streaming chat snippets run against provider-sim",
  cases: CHAT_CASES,
  options: { streaming: true, temperature: 0, top_p: 0.9, max_tokens: 64 },
});

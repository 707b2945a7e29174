import { CHAT_CASES } from "./__fixtures__/exec-cases.js";
import { describeSnippetExecution } from "./testing/exec-suite.js";

describeSnippetExecution({ title: "chat snippets run against provider-sim", cases: CHAT_CASES });
describeSnippetExecution({
  title: "streaming chat snippets run against provider-sim",
  cases: CHAT_CASES,
  options: { streaming: true, temperature: 0, top_p: 0.9, max_tokens: 64 },
});
// `auto`: the hub clients pick the provider from the mapping, the OpenAI-compatible ones let the router pick
// (the bare model id at `{router}/v1`). The simulated router, like the hub's, picks the first live provider.
describeSnippetExecution({
  title: "chat snippets for the auto provider run against provider-sim",
  cases: CHAT_CASES.filter((testCase) => testCase.provider === "hf-inference"),
  options: { autoProvider: true },
});

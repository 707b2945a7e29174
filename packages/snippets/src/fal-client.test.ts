import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { getInferenceSnippets } from "./generate.js";

/**
 * fal_client cannot be installed on this machine, so its snippet is not executed. It must compile, and
 * call only what the real client offers: `fal_client.subscribe(application, arguments=...)`.
 */
describe("fal_client snippets", () => {
  const flux = { id: "black-forest-labs/FLUX.1-dev", tags: [], pipeline_tag: "text-to-image" as const };

  it("are offered for text-to-image on fal-ai only", () => {
    const onFal = getInferenceSnippets(flux, undefined, "fal-ai", "fal-ai/flux/dev");
    expect(onFal.filter((s) => s.client === "fal_client")).toHaveLength(1);
    const onReplicate = getInferenceSnippets(flux, undefined, "replicate", "black-forest-labs/flux-dev");
    expect(onReplicate.some((s) => s.client === "fal_client")).toBe(false);
    const asr = {
      id: "openai/whisper-large-v3",
      tags: [],
      pipeline_tag: "automatic-speech-recognition" as const,
    };
    expect(
      getInferenceSnippets(asr, undefined, "fal-ai", "fal-ai/whisper").some((s) => s.client === "fal_client"),
    ).toBe(false);
  });

  it("compile and call fal_client.subscribe with the application and its arguments", () => {
    const snippet = getInferenceSnippets(flux, undefined, "fal-ai", "fal-ai/flux/dev").find(
      (s) => s.client === "fal_client",
    )!;
    const program = [
      "import ast, json, sys",
      "tree = ast.parse(sys.stdin.read())",
      "calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and n.func.value.id == 'fal_client']",
      "print(json.dumps([{'name': c.func.attr, 'args': [ast.literal_eval(a) for a in c.args], 'kwargs': {k.arg: ast.literal_eval(k.value) for k in c.keywords}} for c in calls]))",
    ].join("\n");
    const calls = JSON.parse(
      execFileSync("python3", ["-c", program], { input: snippet.content }).toString("utf8"),
    );
    expect(calls).toEqual([
      {
        name: "subscribe",
        args: ["fal-ai/flux/dev"],
        kwargs: {
          arguments: { prompt: "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k" },
        },
      },
    ]);
  });
});

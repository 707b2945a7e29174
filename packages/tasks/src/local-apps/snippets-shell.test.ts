import { describe, expect, it } from "vitest";
import type { ModelData } from "../model-data.js";
import fixtures from "./__fixtures__/models.json" with { type: "json" };
import { checkSyntax, runWithStubs, type StubCall } from "./__fixtures__/shell-harness.js";
import { LOCAL_APP_KEYS, LOCAL_APPS, type LocalApp, type LocalAppSnippet } from "./index.js";
import { encodePath } from "./urls.js";

const models = Object.values(fixtures) as ModelData[];

/** Ids and file names built to break out of a shell word or a URL, each with a canary side effect. */
const HOSTILE_IDS = [
  "evil/$(touch pwned1)",
  "evil/a'b\"c`touch pwned2`",
  "evil/x; touch pwned3 #",
  "evil/line\ntouch pwned4",
  "evil/back\\slash ${HOME} *",
  "évil/模型-ünï – 🚀",
  "evil/-rf --help",
];
const HOSTILE_FILE = "sub dir/it's $(touch pwned5) `touch pwned6`-Q4_K_M.gguf";

function hostileModels(id: string): ModelData[] {
  return [
    {
      id,
      tags: ["gguf", "conversational"],
      pipeline_tag: "text-generation",
      // A template that renders tools: coding agents show for it.
      gguf: { total: 1, chat_template: "{% if tools %}{{ tools | tojson }}{% endif %}" },
      siblings: [{ rfilename: HOSTILE_FILE }, { rfilename: `${id.replaceAll("/", "_")}-Q8_0.gguf` }],
    },
    {
      id,
      tags: ["transformers", "conversational", "text-generation-inference"],
      pipeline_tag: "text-generation",
      library_name: "transformers",
    },
    {
      id,
      tags: ["mlx", "conversational"],
      pipeline_tag: "text-generation",
      library_name: "mlx",
      config: { tokenizer_config: { chat_template: "{% for tool in tools %}{{ tool }}{% endfor %}" } },
    },
    { id, tags: ["ryzenai-hybrid", "onnx"], pipeline_tag: "text-generation" },
    { id, tags: ["llamafile"], siblings: [{ rfilename: "x.llamafile" }] },
  ];
}

function snippetsOf(model: ModelData, quantFile?: string): Array<{ app: string; snippet: LocalAppSnippet }> {
  return LOCAL_APP_KEYS.flatMap((key) => {
    const app: LocalApp = LOCAL_APPS[key];
    if (app.kind !== "snippet" || !app.displayOnModelPage(model)) return [];
    return app.snippet(model, quantFile).map((snippet) => ({ app: key, snippet }));
  });
}

const blocksOf = (snippet: LocalAppSnippet): string[] => [
  ...(snippet.setup ? [snippet.setup] : []),
  ...snippet.content,
];

describe("local-app snippets are valid shell", () => {
  it("parses with bash -n, for representative and hostile models", () => {
    const all = [...models, ...HOSTILE_IDS.flatMap(hostileModels)].flatMap((model) => [
      ...snippetsOf(model),
      ...snippetsOf(model, HOSTILE_FILE),
    ]);
    const blocks = all.flatMap(({ snippet }) => blocksOf(snippet));
    expect(blocks.length).toBeGreaterThan(200);
    const failures = checkSyntax(blocks);
    expect([...failures.entries()].map(([i, error]) => `${blocks[i]}\n${error}`)).toEqual([]);
  });
});

describe("hostile model ids and file names stay single shell words", () => {
  it.each(HOSTILE_IDS)("%j", (id) => {
    const runs = hostileModels(id).flatMap((model) => [
      ...snippetsOf(model),
      ...snippetsOf(model, HOSTILE_FILE),
    ]);
    const blocks = runs.flatMap(({ app, snippet }) => snippet.content.map((content) => ({ app, content })));
    const result = runWithStubs(blocks.map((block) => block.content));
    expect(result.strayFiles, result.stderr).toEqual([]);
    const calls = (app: string): StubCall[] =>
      blocks.flatMap((block, i) => (block.app === app ? (result.calls[i] ?? []) : []));
    const argsOf = (app: string, command: string): string[][] =>
      calls(app)
        .filter((call) => call.command === command)
        .map((call) => call.args);

    // Every block passes the model id through whole, in one argument (URLs carry it percent-encoded, JSON bodies escaped).
    blocks.forEach((block, i) => {
      const args = (result.calls[i] ?? []).flatMap((call) => call.args);
      expect(
        args.some((arg) =>
          [id, encodePath(id), JSON.stringify(id).slice(1, -1)].some((form) => arg.includes(form)),
        ),
        `${block.app}: ${block.content}`,
      ).toBe(true);
    });
    expect(argsOf("ollama", "ollama")).toContainEqual(["run", `hf.co/${id}:Q4_K_M`]);
    expect(argsOf("docker-model-runner", "docker")).toContainEqual(["model", "run", `hf.co/${id}:Q4_K_M`]);
    expect(argsOf("vllm", "vllm")).toContainEqual(["serve", id]);
    expect(argsOf("llama.cpp", "llama-server")).toContainEqual(["-hf", `${id}:Q4_K_M`]);
    expect(argsOf("mlx-lm", "mlx_lm.chat")).toContainEqual(["--model", id]);
    expect(argsOf("tgi", "docker").some((args) => args.at(-1) === id && args.at(-2) === "--model-id")).toBe(
      true,
    );
    expect(argsOf("lemonade", "lemonade")).toContainEqual(["pull", `${id}:Q4_K_M`]);
    expect(argsOf("lemonade", "lemonade")).toContainEqual(["pull", id]);
    for (const agent of ["pi", "hermes-agent", "openclaw"]) {
      expect(argsOf(agent, "llama-server")).toContainEqual([
        "-hf",
        `${id}:Q4_K_M`,
        "--jinja",
        "--port",
        "8080",
      ]);
      expect(argsOf(agent, "mlx_lm.server")).toContainEqual(["--model", id, "--port", "8080"]);
    }
    expect(argsOf("pi", "pi")).toContainEqual(["--provider", "llama-cpp", "--model", `${id}:Q4_K_M`]);
    expect(argsOf("pi", "pi")).toContainEqual(["--provider", "mlx-lm", "--model", id]);
    expect(argsOf("hermes-agent", "hermes")).toContainEqual([
      "config",
      "set",
      "model.default",
      `${id}:Q4_K_M`,
    ]);
    const onboard = argsOf("openclaw", "openclaw").filter((args) => args[0] === "onboard");
    const onboarded = onboard.map((args) => args[args.indexOf("--custom-model-id") + 1]);
    expect(onboarded).toContain(`${id}:Q4_K_M`);
    expect(onboarded).toContain(id);
    for (const args of argsOf("vllm", "curl")) {
      expect(JSON.parse(args[args.indexOf("--data") + 1] ?? "null")).toMatchObject({ model: id });
    }
    // The picked file is downloaded from its encoded URL to its own name, then loaded by that name.
    const download = argsOf("llamafile", "curl").find((args) =>
      args.includes("it's $(touch pwned5) `touch pwned6`-Q4_K_M.gguf"),
    );
    expect(download?.[download.length - 1]).toMatch(
      /\/resolve\/main\/sub%20dir\/it's%20%24\(touch%20pwned5\)%20%60touch%20pwned6%60-Q4_K_M\.gguf$/,
    );
    expect(argsOf("llamafile", "llamafile")).toContainEqual([
      "-m",
      "it's $(touch pwned5) `touch pwned6`-Q4_K_M.gguf",
    ]);
  });
});

describe("deep links keep hostile ids inside one encoded value", () => {
  it.each(HOSTILE_IDS)("%j", (id) => {
    const model: ModelData = {
      id,
      tags: ["gguf"],
      pipeline_tag: "text-generation",
      library_name: "diffusers",
    };
    const lmstudio = LOCAL_APPS.lmstudio.deeplink(model, HOSTILE_FILE);
    expect([lmstudio.protocol, lmstudio.host, lmstudio.pathname]).toEqual(["lmstudio:", "open_from_hf", ""]);
    expect([...lmstudio.searchParams.keys()]).toEqual(["model", "file"]);
    expect(lmstudio.searchParams.get("model")).toBe(id);
    expect(lmstudio.searchParams.get("file")).toBe(HOSTILE_FILE);
    const jan = LOCAL_APPS.jan.deeplink(model);
    expect([jan.protocol, jan.host, jan.search, jan.hash]).toEqual(["jan:", "models", "", ""]);
    expect(jan.pathname.split("/").slice(2).map(decodeURIComponent).join("/")).toBe(id);
    const invoke = LOCAL_APPS.invoke.deeplink(model);
    expect([invoke.host, invoke.search, invoke.hash]).toEqual(["models.invoke.ai", "", ""]);
    expect(invoke.pathname.split("/").slice(2).map(decodeURIComponent).join("/")).toBe(id);
    const msty = LOCAL_APPS.msty.deeplink(model);
    expect([msty.protocol, msty.host, msty.search, msty.hash]).toEqual(["msty:", "models", "", ""]);
    expect(msty.pathname.split("/").slice(3).map(decodeURIComponent).join("/")).toBe(id);
    for (const url of [
      LOCAL_APPS.unsloth.deeplink(model, HOSTILE_FILE),
      LOCAL_APPS.sanctum.deeplink(model, HOSTILE_FILE),
    ]) {
      expect([url.host, url.pathname, url.hash]).toEqual(["open_from_hf", "", ""]);
      expect([...url.searchParams.entries()]).toEqual([
        ["model", id],
        ["file", HOSTILE_FILE],
      ]);
    }
    const byPath = [
      [LOCAL_APPS["atomic-chat"].deeplink(model), "atomic-chat://models/huggingface/"],
      [LOCAL_APPS.backyard.deeplink(model), "https://backyard.ai/hf/model/"],
      [LOCAL_APPS.jellybox.deeplink(model), "jellybox://llm/models/huggingface/LLM/"],
    ] as const;
    for (const [url, prefix] of byPath) {
      expect(url.href.startsWith(prefix), url.href).toBe(true);
      expect([url.search, url.hash]).toEqual(["", ""]);
      expect(url.href.slice(prefix.length).split("/").map(decodeURIComponent).join("/")).toBe(id);
    }
    const byQuery = [
      [LOCAL_APPS.joyfusion.deeplink(model), "repo_id"],
      [LOCAL_APPS.recursechat.deeplink(model), "hf-model-id"],
      [LOCAL_APPS.drawthings.deeplink(model), "repo_id"],
      [LOCAL_APPS.diffusionbee.deeplink(model), "model_id"],
    ] as const;
    for (const [url, param] of byQuery) {
      expect([...url.searchParams.keys()], url.href).toEqual([param]);
      expect(url.searchParams.get(param)).toBe(id);
      expect(url.hash).toBe("");
    }
  });
});

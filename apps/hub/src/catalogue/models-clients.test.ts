/**
 * `GET /api/models` as the real clients call it: huggingface_hub's `list_models` (Python, from .venv, and
 * plain `requests` as older clients sent their parameters) and @huggingface/hub's `listModels`, against a
 * hub listening on loopback with the built-in catalogue. Each answer is compared with the catalogue file
 * filtered and sorted here by hand, without the hub's code.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { listModels } from "@huggingface/hub";
import { LOCAL_APPS, type LocalApp, type ModelData } from "@modelhub/tasks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { startTestHub } from "../__fixtures__/test-hub.js";
import { isServedMapping } from "../router/served.js";
import type { RunningHub } from "../start-hub.js";
import { BUILT_IN_CATALOGUE_DIR } from "./catalogue.js";

const VENV_PYTHON = fileURLToPath(new URL("../../../../.venv/bin/python", import.meta.url));
const PYTHON_DRIVER = fileURLToPath(new URL("../__fixtures__/list-models.py", import.meta.url));

interface CatalogueModel extends ModelData {
  id: string;
  author: string;
  downloads: number;
  likes: number;
  trendingScore: number;
  /** Left out where no public source gives it (catalogue/sources.json): the hub then dates it at seeding. */
  createdAt?: string;
  lastModified?: string;
  gated: false | "auto" | "manual";
}
type Mappings = Record<string, Record<string, { status: string; task: string }>>;

const catalogue = JSON.parse(
  readFileSync(`${BUILT_IN_CATALOGUE_DIR}/models.json`, "utf8"),
) as CatalogueModel[];
const mappings = JSON.parse(readFileSync(`${BUILT_IN_CATALOGUE_DIR}/mappings.json`, "utf8")) as Mappings;

// --- the catalogue, filtered and sorted by hand ---------------------------------------------------------
const lower = (id: string) => id.toLowerCase();
const byId = (a: string, b: string) => (lower(a) < lower(b) ? -1 : lower(a) > lower(b) ? 1 : 0);
const servedLive = (model: CatalogueModel, providers?: string[]) =>
  Object.entries(mappings[model.id] ?? {}).some(
    ([provider, mapping]) =>
      mapping.status === "live" &&
      // The hub does not offer the mappings it cannot serve (router/served.ts).
      isServedMapping(provider, mapping.task) &&
      (!providers || providers.includes(provider)),
  );
const parameterCount = (model: CatalogueModel) => model.safetensors?.total ?? model.gguf?.total;
const asList = (value: string | string[] | undefined) => (value === undefined ? [] : [value].flat());

const SORT_KEYS: Record<string, (model: CatalogueModel) => number | string> = {
  // The catalogue's downloads, likes and trending score are huggingface.co's (catalogue/figures.json): kept
  // apart and labelled, so this hub's own counters start at 0 and these sorts order a fresh hub by id.
  trendingScore: () => 0,
  likes30d: () => 0,
  downloads: () => 0,
  likes: () => 0,
  // The catalogue's own date, or (left out there) the one the hub gave the model when it seeded it.
  createdAt: (m) => m.createdAt ?? seededDates.get(m.id)!.createdAt,
  lastModified: (m) => m.lastModified ?? seededDates.get(m.id)!.lastModified,
  id: (m) => lower(m.id),
  num_parameters: (m) => parameterCount(m) ?? 0,
  mainSize: () => 0, // the catalogue's file lists carry no sizes
};

/** Ids of the models that pass `keep`, in the hub's order: the sort key, then the id ascending. */
function expected(
  keep: (model: CatalogueModel) => boolean,
  sort = "trendingScore",
  direction = -1,
): string[] {
  const key = SORT_KEYS[sort]!;
  return catalogue
    .filter(keep)
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x !== y) return (x < y ? -1 : 1) * direction;
      return byId(a.id, b.id);
    })
    .map((model) => model.id);
}

// --- the hub and the clients' answers --------------------------------------------------------------------
let hub: RunningHub;
let temp: ReturnType<typeof makeTempDir>;
type PythonAnswer = { models?: Array<Record<string, unknown> & { id: string }>; error?: string };
let python: Record<string, PythonAnswer>;
/** The dates the hub stored for each catalogue model (for models the catalogue leaves undated). */
const seededDates = new Map<string, { createdAt: string; lastModified: string }>();

/** Every Python call, run in one interpreter (a start per call would cost a second each). */
const PYTHON_CALLS: Array<{ name: string } & ({ list_models: object } | { requests: object })> = [
  { name: "all", list_models: {} },
  { name: "author", list_models: { author: "meta-llama" } },
  { name: "filter", list_models: { filter: ["conversational", "text-generation-inference"] } },
  { name: "filter-one", list_models: { filter: "gguf" } },
  { name: "pipeline_tag", list_models: { pipeline_tag: "text-to-image" } },
  { name: "search", list_models: { search: "LLaMA" } },
  { name: "gated-true", list_models: { gated: true } },
  { name: "gated-false", list_models: { gated: false } },
  { name: "inference_provider", list_models: { inference_provider: "together" } },
  { name: "inference_provider-list", list_models: { inference_provider: ["cerebras", "cohere"] } },
  { name: "inference_provider-all", list_models: { inference_provider: "all" } },
  { name: "inference-warm", list_models: { inference: "warm" } },
  { name: "num_parameters", list_models: { num_parameters: "min:6B,max:10B" } },
  { name: "apps", list_models: { apps: ["vllm", "ollama"] } },
  { name: "limit", list_models: { limit: 7, sort: "downloads" } },
  { name: "sort-created_at", list_models: { sort: "created_at" } },
  { name: "sort-downloads", list_models: { sort: "downloads" } },
  { name: "sort-last_modified", list_models: { sort: "last_modified" } },
  { name: "sort-likes", list_models: { sort: "likes" } },
  { name: "sort-trending_score", list_models: { sort: "trending_score" } },
  { name: "full", list_models: { full: true, limit: 3 } },
  { name: "cardData", list_models: { cardData: true, limit: 3 } },
  { name: "fetch_config", list_models: { fetch_config: true, search: "Llama-3.1-8B-Instruct" } },
  // Every expand value list_models documents for listings (the driver reads them from its docstring).
  { name: "expand", list_models: { limit: 5, expand: "every value list_models documents" } },
  // meta-llama's models have a config and files (a fresh hub's default order is by id: counters start at 0).
  {
    name: "requests-full-True",
    requests: { full: true, cardData: true, config: true, author: "meta-llama", limit: 2 },
  },
  { name: "requests-library", requests: { library: "diffusers", limit: 1000 } },
  { name: "requests-language", requests: { language: "en", limit: 1000 } },
  { name: "requests-license", requests: { license: "mit", limit: 1000 } },
  {
    name: "requests-unknown",
    requests: { sort: "likes", direction: 1, colour: "blue", page: 3, limit: 1000 },
  },
];

function runPython(input: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(VENV_PYTHON, [PYTHON_DRIVER], {
      env: { PATH: process.env.PATH, HOME: temp.dir, HF_ENDPOINT: hub.url, HF_HUB_DISABLE_TELEMETRY: "1" },
      timeout: 60_000,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`list-models.py exited ${code}: ${stderr}`)),
    );
    child.stdin.end(input);
  });
}

beforeAll(async () => {
  temp = makeTempDir();
  hub = await startTestHub({ dataDir: temp.dir, providerSim: false });
  for (const model of catalogue) {
    const stored = await hub.store.models.get(model.id);
    seededDates.set(model.id, { createdAt: stored!.createdAt, lastModified: stored!.lastModified });
  }
  // Asynchronously: the hub answers from this very process.
  python = JSON.parse(await runPython(JSON.stringify(PYTHON_CALLS))) as Record<string, PythonAnswer>;
}, 90_000);

afterAll(async () => {
  await hub?.close();
  temp?.remove();
});

function pythonModels(name: string) {
  const answer = python[name]!;
  expect(answer.error, name).toBeUndefined();
  return answer.models!;
}
const pythonIds = (name: string) => pythonModels(name).map((model) => model.id);

const runsIn = (keys: string[]) => (model: CatalogueModel) =>
  keys.some((key) => (LOCAL_APPS as Record<string, LocalApp>)[key]!.displayOnModelPage(model));

describe("huggingface_hub list_models against the hub", () => {
  it("lists the whole catalogue through the Link pages, most trending first", () => {
    expect(pythonIds("all")).toEqual(expected(() => true));
    expect(pythonIds("all").length).toBe(catalogue.length);
  });

  it("author", () => {
    expect(pythonIds("author")).toEqual(expected((m) => m.author === "meta-llama"));
  });

  it("filter: every tag given (AND), a single one too", () => {
    const both = expected(
      (m) => m.tags.includes("conversational") && m.tags.includes("text-generation-inference"),
    );
    expect(both.length).toBeGreaterThan(0);
    expect(pythonIds("filter")).toEqual(both);
    expect(pythonIds("filter-one")).toEqual(expected((m) => m.tags.includes("gguf")));
  });

  it("pipeline_tag", () => {
    expect(pythonIds("pipeline_tag")).toEqual(expected((m) => m.pipeline_tag === "text-to-image"));
  });

  it("search: a case-insensitive substring of the id", () => {
    // Every id containing the text (case-insensitive), as on the public hub; the search index may add
    // repositories whose card matches, best match first (search/search.e2e.test.ts checks the ranking).
    const found = pythonIds("search");
    expect(found).toEqual(expect.arrayContaining(expected((m) => lower(m.id).includes("llama"))));
    expect(new Set(found).size).toBe(found.length);
  });

  it("gated=True and gated=False", () => {
    const gated = expected((m) => m.gated !== false);
    expect(gated.length).toBeGreaterThan(0);
    expect(pythonIds("gated-true")).toEqual(gated);
    expect(pythonIds("gated-false")).toEqual(expected((m) => m.gated === false));
  });

  it("inference_provider: one, a list (any of), all; inference=warm", () => {
    expect(pythonIds("inference_provider")).toEqual(expected((m) => servedLive(m, ["together"])));
    expect(pythonIds("inference_provider-list")).toEqual(
      expected((m) => servedLive(m, ["cerebras", "cohere"])),
    );
    expect(pythonIds("inference_provider-all")).toEqual(expected((m) => servedLive(m)));
    expect(pythonIds("inference-warm")).toEqual(expected((m) => servedLive(m)));
  });

  it("num_parameters range", () => {
    const inRange = expected((m) => {
      const count = parameterCount(m);
      return count !== undefined && count >= 6e9 && count <= 10e9;
    });
    expect(inRange.length).toBeGreaterThan(3);
    expect(pythonIds("num_parameters")).toEqual(inRange);
  });

  it("apps: models any of the local apps can run, by the apps' own rules", () => {
    const runnable = expected(runsIn(["vllm", "ollama"]));
    expect(runnable.length).toBeGreaterThan(0);
    expect(runnable.length).toBeLessThan(catalogue.length);
    expect(pythonIds("apps")).toEqual(runnable);
  });

  it("limit", () => {
    expect(pythonIds("limit")).toEqual(expected(() => true, "downloads").slice(0, 7));
  });

  it("keeps the catalogue's sourced creation dates", () => {
    for (const model of catalogue.filter((m) => m.createdAt !== undefined)) {
      expect(Date.parse(seededDates.get(model.id)!.createdAt), model.id).toBe(Date.parse(model.createdAt!));
    }
  });

  it("every sort huggingface_hub sends (descending, as the public hub)", () => {
    for (const [name, sort] of [
      ["sort-created_at", "createdAt"],
      ["sort-downloads", "downloads"],
      ["sort-last_modified", "lastModified"],
      ["sort-likes", "likes"],
      ["sort-trending_score", "trendingScore"],
    ] as const) {
      expect(pythonIds(name), name).toEqual(expected(() => true, sort));
    }
  });

  it("full=True, cardData=True and fetch_config add what they name", () => {
    expect(pythonModels("full").every((m) => m.has_siblings && !m.has_config)).toBe(true);
    const withCardData = pythonModels("cardData");
    expect(withCardData.map((m) => m.id)).toEqual(expected(() => true).slice(0, 3));
    // huggingface_hub reads an empty cardData as none: a model whose card states no metadata has none.
    for (const model of withCardData) {
      const stated = Object.keys(catalogue.find((m) => m.id === model.id)?.cardData ?? {}).length > 0;
      expect(model.has_card_data, model.id).toBe(stated);
    }
    expect(withCardData.some((m) => m.has_card_data)).toBe(true);
    const [llama] = pythonModels("fetch_config");
    expect(llama).toMatchObject({ id: "meta-llama/Llama-3.1-8B-Instruct", has_config: true });
  });

  it("expand: every field huggingface_hub lists for listings is accepted", () => {
    const models = pythonModels("expand");
    expect(models.map((m) => m.id)).toEqual(expected(() => true).slice(0, 5));
    // Python's None (a model without a parameter count) is null here.
    expect(models[0]!.safetensors_total ?? undefined).toBe(
      parameterCount(catalogue.find((m) => m.id === models[0]!.id)!),
    );
  });

  it("booleans as requests writes them (full=True), with cardData and config", () => {
    const [first] = pythonModels("requests-full-True") as Array<{ id: string; keys: string[] }>;
    // The first is a demo copy nobody has committed to: it has no lastModified of this hub's to give
    // (docs/decisions/demo-copies.md), and huggingface_hub reads that field as optional.
    expect(first!.keys).toEqual(expect.arrayContaining(["cardData", "config", "siblings", "gated"]));
  });

  it("library, language and license", () => {
    expect(pythonIds("requests-library")).toEqual(expected((m) => m.library_name === "diffusers"));
    const english = expected((m) => m.tags.includes("en") || asList(m.cardData?.language).includes("en"));
    expect(english.length).toBeGreaterThan(0);
    expect(pythonIds("requests-language")).toEqual(english);
    const mit = expected(
      (m) => m.tags.includes("license:mit") || asList(m.cardData?.license).includes("mit"),
    );
    expect(pythonIds("requests-license")).toEqual(mit);
  });

  it("ignores parameters it does not know, and applies the others", () => {
    expect(pythonIds("requests-unknown")).toEqual(expected(() => true, "likes", 1));
  });
});

describe("@huggingface/hub listModels against the hub", () => {
  async function ids(params: Parameters<typeof listModels>[0] = {}): Promise<string[]> {
    const found: string[] = [];
    for await (const model of listModels({ hubUrl: hub.url, ...params })) found.push(model.name);
    return found;
  }

  it("search.query, owner, task and tags", async () => {
    // Every id containing the text, and any repository the search index matched, best match first.
    const found = await ids({ search: { query: "qwen" } });
    expect(found).toEqual(expect.arrayContaining(expected((m) => lower(m.id).includes("qwen"))));
    expect(await ids({ search: { owner: "google" } })).toEqual(expected((m) => m.author === "google"));
    expect(await ids({ search: { task: "text-classification" } })).toEqual(
      expected((m) => m.pipeline_tag === "text-classification"),
    );
    expect(await ids({ search: { tags: ["conversational", "gguf"] } })).toEqual(
      expected((m) => m.tags.includes("conversational") && m.tags.includes("gguf")),
    );
  });

  it("inferenceProviders (comma-joined: any of)", async () => {
    expect(await ids({ search: { inferenceProviders: ["fal-ai", "replicate"] } })).toEqual(
      expected((m) => servedLive(m, ["fal-ai", "replicate"])),
    );
  });

  it("apps (comma-joined: any of), by the local apps' own rules", async () => {
    for (const apps of [["llama.cpp"], ["lmstudio", "mlx-lm"], ["drawthings"]]) {
      const runnable = expected(runsIn(apps));
      expect(runnable.length, apps.join()).toBeGreaterThan(0);
      expect(await ids({ search: { apps } }), apps.join()).toEqual(runnable);
    }
  });

  it("every sort it offers", async () => {
    for (const sort of Object.keys(SORT_KEYS) as Array<
      NonNullable<Parameters<typeof listModels>[0]>["sort"]
    >) {
      expect(await ids({ sort }), sort).toEqual(expected(() => true, sort));
    }
  });

  it("limit, and every additional field it can ask for", async () => {
    const models: Array<Record<string, unknown>> = [];
    for await (const model of listModels({
      hubUrl: hub.url,
      limit: 4,
      sort: "downloads",
      additionalFields: [
        "author",
        "cardData",
        "config",
        "createdAt",
        "disabled",
        "downloadsAllTime",
        "gitalyUid",
        "inferenceProviderMapping",
        "library_name",
        "model-index",
        "safetensors",
        "sha",
        "spaces",
        "tags",
        "transformersInfo",
        "filePaths",
      ],
    })) {
      models.push(model as unknown as Record<string, unknown>);
    }
    expect(models.map((m) => m.name)).toEqual(expected(() => true, "downloads").slice(0, 4));
    const top = catalogue.find((m) => m.id === models[0]!.name)!;
    expect(models[0]).toMatchObject({ author: top.author, downloadsAllTime: 0, spaces: [] });
    expect(models[0]!.filePaths).toEqual(top.siblings!.map((file) => file.rfilename));
  });
});

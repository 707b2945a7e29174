/**
 * Screenshots of every page in light and dark (and some at phone width) for the READMEs' tour, taken from
 * the production build served by a real hub. Run: npm run screenshots -w apps/web
 * (`-- playground use-this-model` retakes only the shots of those names).
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { buildWebIfStale, WEB_ROOT } from "../e2e/build-web.js";
import { type ColorScheme, grantGatedModel, startWebHarness, type WebHarness } from "../e2e/harness.js";
import { CHAT_MODEL, GGUF_MODEL, PAGE_READY } from "../e2e/pages.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "../e2e/repo-seed.js";
import { signIn } from "../e2e/repo-users.js";

const OUT = resolve(WEB_ROOT, "../../docs/screenshots");
/** A second user, who asks ada for access to her gated model. */
const VISITOR = "grace";
/** A model of ada's, gated, whose card asks what the public hub's Llama cards ask. */
const GATED_MODEL = `${SEEDED.user}/storm-tracker`;
const GATED_CARD = [
  "---",
  "license: other",
  "pipeline_tag: text-generation",
  "extra_gated_prompt: Storm Tracker is shared with weather services and researchers. Tell us who you are.",
  "extra_gated_fields:",
  "  Organization: text",
  "  Use:",
  "    type: select",
  "    options: [Research, Forecasting, Education]",
  "  I agree to share only forecasts made with it, not the weights: checkbox",
  "---",
  "# Storm Tracker",
  "",
  "A nowcasting model for convective storms, trained on radar frames.",
  "",
].join("\n");
/** A static space of ada's: a page of its own, served from the spaces origin into the App tab. */
const STATIC_SPACE = `${SEEDED.user}/station-map`;
/** A user's own transformers model with weights: its Library tab shows loading code pointed at this hub. */
const USER_MODEL = `${SEEDED.user}/tiny-llm`;
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

interface Shot {
  name: string;
  path: string;
  ready: (page: Page) => Promise<unknown>;
  /** Before loading, e.g. signing in. */
  before?: (page: Page) => Promise<unknown>;
  /** Interactions after loading, e.g. sending a chat message. */
  act?: (page: Page) => Promise<unknown>;
  phone?: boolean;
}

/** Fills the gate's form as the visitor would; submits it when `submit`. Nothing when already asked. */
async function askForAccess(page: Page, submit: boolean) {
  const form = page.getByRole("form", { name: "Ask for access" });
  const pending = page.getByRole("status").getByText(/awaiting review by its owners/);
  await form.or(pending).first().waitFor();
  if (await pending.isVisible()) return;
  await form.getByLabel("Organization").fill("Northern Weather Service");
  await form.getByLabel("Use").selectOption("Forecasting");
  await form.getByLabel(/I agree to share only forecasts/).check();
  if (!submit) return form.scrollIntoViewIfNeeded();
  await form.getByRole("button", { name: "Ask for access" }).click();
  await pending.waitFor();
  await pending.scrollIntoViewIfNeeded();
}

const SHOTS: Shot[] = [
  {
    name: "home",
    path: "/",
    ready: (page) => page.getByRole("heading", { name: "Recently updated" }).waitFor(),
  },
  {
    name: "models",
    path: "/models?task=text-generation&sort=likes",
    ready: PAGE_READY.models,
    phone: true,
  },
  {
    name: "model-card",
    path: `/${CHAT_MODEL}`,
    ready: PAGE_READY.modelCard,
  },
  {
    name: "use-this-model",
    path: `/${CHAT_MODEL}`,
    ready: PAGE_READY.modelCard,
    act: (page) => page.locator("details[data-menu] > summary").click(),
    phone: true,
  },
  {
    name: "library",
    path: `/${USER_MODEL}/libraries/transformers`,
    ready: PAGE_READY.library,
  },
  {
    name: "local-apps",
    path: `/${GGUF_MODEL}/local-apps/llama.cpp?quant=Q4_K_M`,
    ready: PAGE_READY.localApps,
  },
  {
    name: "inference-snippets",
    path: `/${CHAT_MODEL}/inference?provider=together&language=python&client=openai&streaming=true&temperature=0.6`,
    ready: PAGE_READY.inference,
    phone: true,
  },
  {
    name: "playground",
    path: `/${CHAT_MODEL}/playground?provider=together`,
    // Signed in, the playground chats with the session: no token to paste.
    before: (page) => signIn(page, SEEDED.user),
    ready: PAGE_READY.playground,
    act: async (page) => {
      await page.getByRole("textbox", { name: "Your message" }).fill("What is the capital of France?");
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor();
    },
    phone: true,
  },
  {
    name: "playground-image",
    path: "/black-forest-labs/FLUX.1-schnell/playground?provider=hf-inference",
    before: (page) => signIn(page, SEEDED.user),
    ready: (page) => page.getByRole("button", { name: "Generate" }).waitFor(),
    act: async (page) => {
      await page.getByRole("button", { name: "Generate" }).click();
      await page.getByTestId("simulator-badge").waitFor();
      await page.getByTestId("generated-image").scrollIntoViewIfNeeded();
    },
  },
  {
    name: "gated-access",
    path: `/${GATED_MODEL}`,
    before: (page) => signIn(page, VISITOR),
    ready: PAGE_READY.modelCard,
    act: (page) => askForAccess(page, false),
  },
  {
    name: "gated-access-pending",
    path: `/${GATED_MODEL}`,
    before: (page) => signIn(page, VISITOR),
    ready: PAGE_READY.modelCard,
    act: (page) => askForAccess(page, true),
  },
  {
    name: "chat-template",
    path: `/${CHAT_MODEL}/chat-template`,
    ready: PAGE_READY.chatTemplate,
  },
  {
    name: "files",
    path: `/${GGUF_MODEL}/tree/main`,
    ready: PAGE_READY.files,
    phone: true,
  },
  {
    name: "file",
    path: `/${GGUF_MODEL}/blob/main/README.md`,
    ready: PAGE_READY.file,
  },
  {
    name: "commits",
    path: `/${GGUF_MODEL}/commits/main`,
    ready: PAGE_READY.history,
  },
  {
    name: "datasets",
    path: "/datasets?language=en",
    ready: PAGE_READY.repoList,
    phone: true,
  },
  {
    name: "dataset",
    path: `/datasets/${SEEDED.dataset}`,
    ready: PAGE_READY.datasetCard,
    phone: true,
  },
  {
    name: "spaces",
    path: "/spaces",
    ready: PAGE_READY.repoList,
  },
  {
    name: "space-app",
    path: `/spaces/${STATIC_SPACE}/app`,
    ready: (page) =>
      page.frameLocator('[data-testid="space-app"]').getByRole("heading", { name: "Station map" }).waitFor(),
  },
  {
    name: "new-dataset",
    path: "/new-dataset",
    before: (page) => signIn(page, SEEDED.user),
    ready: PAGE_READY.newRepo,
  },
  {
    name: "owner",
    path: `/${SEEDED.user}`,
    ready: PAGE_READY.owner,
    phone: true,
  },
  {
    name: "sign-in",
    path: "/login",
    ready: PAGE_READY.signIn,
    phone: true,
  },
  {
    name: "widget-builder",
    path: "/widget-builder?maxProducts=4&maxColumns=2",
    ready: PAGE_READY.widgetBuilder,
    phone: true,
  },
];

async function take(harness: WebHarness, shot: Shot, scheme: ColorScheme, phone: boolean) {
  const page = await harness.newPage({ colorScheme: scheme, viewport: phone ? PHONE : DESKTOP });
  await shot.before?.(page);
  await page.goto(shot.path);
  await shot.ready(page);
  await shot.act?.(page);
  await page.waitForTimeout(400); // highlighting and fonts settle
  const file = join(OUT, `${shot.name}${phone ? "-phone" : ""}-${scheme}.png`);
  await page.screenshot({ path: file });
  await page.context().close();
  console.log(file);
}

buildWebIfStale();
mkdirSync(OUT, { recursive: true });
/** A few more datasets and spaces with cards, so the lists show their tags, SDKs and filters at work. */
const MORE_REPOS: Array<{ type: "dataset" | "space"; id: string; card: string }> = [
  {
    type: "dataset",
    id: "ada/city-names",
    card: "---\nlicense: mit\nlanguage: [en, de]\ntask_categories: [token-classification]\ntags: [tabular]\n---\n",
  },
  {
    type: "dataset",
    id: "acme/radar-frames",
    card: "---\nlicense: apache-2.0\ntask_categories: [image-classification]\nsize_categories: [10K<n<100K]\n---\n",
  },
  {
    type: "dataset",
    id: "ada/station-notes",
    card: "---\nlicense: cc-by-4.0\nlanguage: [en]\ntask_categories: [summarization]\n---\n",
  },
  {
    type: "space",
    id: "ada/rain-dashboard",
    card: "---\ntitle: Rain dashboard\nsdk: streamlit\nlicense: mit\n---\n",
  },
  { type: "space", id: "acme/forecast-api", card: "---\ntitle: Forecast API\nsdk: docker\n---\n" },
];

/** A safetensors file of one small tensor, so the model holds weights. */
function tinySafetensors(): Buffer {
  const header = Buffer.from(JSON.stringify({ w: { dtype: "F32", shape: [2], data_offsets: [0, 8] } }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, Buffer.alloc(8)]);
}

async function seedUserModel(hubUrl: string, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  const created = await fetch(`${hubUrl}/api/repos/create`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ type: "model", name: USER_MODEL }),
  });
  if (!created.ok) throw new Error(`create ${USER_MODEL}: ${created.status} ${await created.text()}`);
  const files: Record<string, string | Buffer> = {
    "README.md":
      "---\nlibrary_name: transformers\npipeline_tag: text-generation\nlicense: mit\n---\n# Tiny LLM\n",
    "config.json": JSON.stringify({ architectures: ["LlamaForCausalLM"], model_type: "llama" }),
    "tokenizer.json": "{}",
    "model.safetensors": tinySafetensors(),
  };
  const lines = [
    { key: "header", value: { summary: "Add the model" } },
    ...Object.entries(files).map(([path, content]) => ({
      key: "file",
      value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
    })),
  ];
  const committed = await fetch(`${hubUrl}/api/models/${USER_MODEL}/commit/main`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  if (!committed.ok) throw new Error(`commit ${USER_MODEL}: ${committed.status} ${await committed.text()}`);
}

/** Creates a repository of ada's and commits `files` to it. */
async function seedRepo(
  hubUrl: string,
  token: string,
  repo: { type: "model" | "space"; id: string; sdk?: string },
  files: Record<string, string>,
) {
  const headers = { authorization: `Bearer ${token}` };
  const created = await fetch(`${hubUrl}/api/repos/create`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ type: repo.type, name: repo.id, ...(repo.sdk ? { sdk: repo.sdk } : {}) }),
  });
  if (!created.ok) throw new Error(`create ${repo.id}: ${created.status} ${await created.text()}`);
  const lines = [
    { key: "header", value: { summary: "Add the files" } },
    ...Object.entries(files).map(([path, text]) => ({
      key: "file",
      value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
    })),
  ];
  const committed = await fetch(`${hubUrl}/api/${repo.type}s/${repo.id}/commit/main`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  if (!committed.ok) throw new Error(`commit ${repo.id}: ${committed.status} ${await committed.text()}`);
}

/** The gated model, its gate set to manual review, and the visitor who asks for it. */
async function seedGatedModel(hubUrl: string, token: string) {
  await seedRepo(hubUrl, token, { type: "model", id: GATED_MODEL }, { "README.md": GATED_CARD });
  const gate = await fetch(`${hubUrl}/api/models/${GATED_MODEL}/settings`, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ gated: "manual" }),
  });
  if (!gate.ok) throw new Error(`gate ${GATED_MODEL}: ${gate.status} ${await gate.text()}`);
  const visitor = await fetch(`${hubUrl}/api/admin/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${SEED_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: VISITOR, fullname: "Grace Hopper", password: "correct horse battery" }),
  });
  if (!visitor.ok) throw new Error(`user ${VISITOR}: ${visitor.status} ${await visitor.text()}`);
}

const STATION_MAP = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Station map</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="style.css"></head>
<body><main>
<h1>Station map</h1>
<p>Last hour's readings of the twelve stations of <em>ada/weather-obs</em>.</p>
<ul id="stations"></ul>
</main><script src="app.js"></script></body></html>
`;
const STATION_STYLE = `body { margin: 0; font-family: system-ui, sans-serif; background: #f0f7ff; color: #0b2545; }
main { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
ul { list-style: none; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(9rem, 1fr)); gap: .5rem; }
li { background: #fff; border: 1px solid #c6dcf5; border-radius: .5rem; padding: .5rem .75rem; }
b { display: block; font-size: 1.4rem; }
`;
const STATION_SCRIPT = `const stations = ["Oslo", "Bergen", "Tromsø", "Lyon", "Brest", "Nice", "Porto", "Faro", "Cork", "Galway", "Turku", "Oulu"];
const list = document.getElementById("stations");
stations.forEach((name, index) => {
  const item = document.createElement("li");
  item.innerHTML = "<b>" + (4 + ((index * 7) % 15)) + " °C</b>" + name;
  list.append(item);
});
`;

async function seedMoreRepos(hubUrl: string, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  for (const repo of MORE_REPOS) {
    const created = await fetch(`${hubUrl}/api/repos/create`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ type: repo.type, name: repo.id }),
    });
    if (!created.ok) throw new Error(`create ${repo.id}: ${created.status} ${await created.text()}`);
    const lines = [
      { key: "header", value: { summary: "Add the card" } },
      {
        key: "file",
        value: { path: "README.md", content: Buffer.from(repo.card).toString("base64"), encoding: "base64" },
      },
    ];
    const committed = await fetch(`${hubUrl}/api/${repo.type}s/${repo.id}/commit/main`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/x-ndjson" },
      body: lines.map((line) => JSON.stringify(line)).join("\n"),
    });
    if (!committed.ok) throw new Error(`commit ${repo.id}: ${committed.status} ${await committed.text()}`);
  }
}

const harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN });
try {
  const seeded = await seedRepoPages(harness);
  await seedMoreRepos(harness.hub.url, seeded.token);
  await seedUserModel(harness.hub.url, seeded.token);
  await seedGatedModel(harness.hub.url, seeded.token);
  await seedRepo(
    harness.hub.url,
    seeded.token,
    { type: "space", id: STATIC_SPACE, sdk: "static" },
    {
      "README.md": "---\ntitle: Station map\nsdk: static\nlicense: mit\n---\n# Station map\n",
      "index.html": STATION_MAP,
      "style.css": STATION_STYLE,
      "app.js": STATION_SCRIPT,
    },
  );
  // The chat model is gated (as Llama is on the public hub): the playground's user has been let in, so the
  // tour shows a chat, not the refusal.
  await grantGatedModel(harness.hub, SEEDED.user, CHAT_MODEL);
  const only = process.argv.slice(2);
  for (const shot of SHOTS.filter((shot) => only.length === 0 || only.includes(shot.name))) {
    for (const scheme of ["light", "dark"] as const) {
      await take(harness, shot, scheme, false);
      if (shot.phone) await take(harness, shot, scheme, true);
    }
  }
} finally {
  await harness.close();
}

/**
 * Screenshots of every page in light and dark (and two at phone width) for the READMEs' tour, taken from
 * the production build served by a real hub. Run: npm run screenshots -w apps/web
 */
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Page } from "playwright-core";
import { buildWebIfStale, WEB_ROOT } from "../e2e/build-web.js";
import { type ColorScheme, startWebHarness, type WebHarness } from "../e2e/harness.js";
import { CHAT_MODEL, GGUF_MODEL, PAGE_READY } from "../e2e/pages.js";

const OUT = resolve(WEB_ROOT, "../../docs/screenshots");
const ADMIN_TOKEN = "screenshots-admin-token-0123";
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844 };

interface Shot {
  name: string;
  path: string;
  ready: (page: Page) => Promise<unknown>;
  /** Interactions after loading, e.g. sending a chat message. */
  act?: (page: Page, hubToken: string) => Promise<unknown>;
  phone?: boolean;
}

const SHOTS: Shot[] = [
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
    path: `/${CHAT_MODEL}/libraries/transformers`,
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
    ready: PAGE_READY.playground,
    act: async (page, hubToken) => {
      await page.getByLabel(/access token/i).fill(hubToken);
      await page.getByRole("textbox", { name: "Your message" }).fill("What is the capital of France?");
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("button", { name: "Send" }).waitFor();
    },
    phone: true,
  },
  {
    name: "playground-image",
    path: "/black-forest-labs/FLUX.1-schnell/playground?provider=hf-inference",
    ready: (page) => page.getByRole("button", { name: "Generate" }).waitFor(),
    act: async (page, hubToken) => {
      await page.getByLabel(/access token/i).fill(hubToken);
      await page.getByRole("button", { name: "Generate" }).click();
      await page.getByTestId("simulator-badge").waitFor();
      await page.getByTestId("generated-image").scrollIntoViewIfNeeded();
    },
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

async function take(harness: WebHarness, shot: Shot, scheme: ColorScheme, phone: boolean, hubToken: string) {
  const page = await harness.newPage({ colorScheme: scheme, viewport: phone ? PHONE : DESKTOP });
  await page.goto(shot.path);
  await shot.ready(page);
  await shot.act?.(page, hubToken);
  await page.waitForTimeout(400); // highlighting and fonts settle
  const file = join(OUT, `${shot.name}${phone ? "-phone" : ""}-${scheme}.png`);
  await page.screenshot({ path: file });
  await page.context().close();
  console.log(file);
}

buildWebIfStale();
mkdirSync(OUT, { recursive: true });
const harness = await startWebHarness({ adminToken: ADMIN_TOKEN });
try {
  const created = await fetch(`${harness.hub.url}/api/admin/tokens`, {
    method: "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "screenshots" }),
  });
  const { token } = (await created.json()) as { token: string };
  for (const shot of SHOTS) {
    for (const scheme of ["light", "dark"] as const) {
      await take(harness, shot, scheme, false, token);
      if (shot.phone) await take(harness, shot, scheme, true, token);
    }
  }
} finally {
  await harness.close();
}

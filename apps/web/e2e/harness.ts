import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningHub, type StartHubOptions, startHub } from "@modelhub/hub";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { WEB_DIST } from "./build-web.js";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

export type ColorScheme = "light" | "dark";

export interface WebHarness {
  hub: RunningHub;
  browser: Browser;
  /** A fresh browser context (own storage) at phone or desktop size, in a colour scheme. */
  newPage(options?: {
    colorScheme?: ColorScheme;
    viewport?: { width: number; height: number };
  }): Promise<Page>;
  close(): Promise<void>;
}

/** A real hub on loopback (temp data dir, seeded catalogue, the built app) and a real Chromium. */
export async function startWebHarness(hubOptions: Partial<StartHubOptions> = {}): Promise<WebHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), "modelhub-web-e2e-"));
  const hub = await startHub({ ...hubOptions, port: 0, dataDir, webDist: hubOptions.webDist ?? WEB_DIST });
  let browser: Browser;
  try {
    browser = await launchChromium();
  } catch (error) {
    await hub.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const contexts: BrowserContext[] = [];
  return {
    hub,
    browser,
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: hub.url,
        colorScheme: options.colorScheme ?? "light",
        viewport: options.viewport ?? { width: 1280, height: 900 },
        permissions: ["clipboard-read", "clipboard-write"],
      });
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      return page;
    },
    async close() {
      await Promise.allSettled(contexts.map((context) => context.close()));
      await browser.close();
      await hub.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Accepts `userName`'s access to a gated model, as its owner would on request: inference on a gated model
 * (the catalogue's meta-llama models are) needs the user's grant, through the router as for its files.
 */
export async function grantGatedModel(hub: RunningHub, userName: string, modelId: string): Promise<void> {
  const user = await hub.store.accounts.users.byName(userName);
  if (!user) throw new Error(`No user ${userName} to grant ${modelId} to.`);
  const existing = await hub.store.accounts.accessRequests.get("model", modelId, user.id);
  if (existing?.status === "accepted") return;
  await hub.store.accounts.accessRequests.request({
    repoType: "model",
    repoId: modelId,
    userId: user.id,
    status: "accepted",
    fields: {},
  });
}

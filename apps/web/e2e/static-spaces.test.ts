import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { signIn, signUp } from "./repo-users.js";

// Issue 38, item 4: a static space's site runs in the App tab, from the spaces origin, in a sandbox. Its
// script tries the hub's API with the visitor's credentials and the hub's cookies: both fail, the app renders.
const SITE = "alice/site";
const GRADIO = "alice/chat-demo";
/** A cookie of the hub's host that scripts could read (not HttpOnly): cookies are per host, not per port. */
const VISIBLE_COOKIE = { name: "hub_visible", value: "hub-visible-secret" };

const appScript = (hubUrl: string) => `
const show = (id, text) => { document.getElementById(id).textContent = text; };
show("rendered", "App rendered");
const attempt = (id, url) =>
  fetch(url, { credentials: "include" })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error("status " + response.status))))
    .then((text) => show(id, "LEAK " + text), (error) => show(id, "blocked: " + error.message));
attempt("relative", "/api/whoami-v2");
attempt("absolute", ${JSON.stringify(`${hubUrl}/api/whoami-v2`)});
try { show("cookie", "cookie: [" + document.cookie + "]"); } catch (error) { show("cookie", "blocked: " + error.name); }
try { show("parent", "LEAK " + window.parent.document.cookie); } catch (error) { show("parent", "blocked: " + error.name); }
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Site</title>
<link rel="stylesheet" href="style.css"></head><body>
<h1 id="rendered">not run</h1><p id="relative">-</p><p id="absolute">-</p><p id="cookie">-</p><p id="parent">-</p>
<script src="app.js"></script></body></html>`;

let harness: WebHarness;
let owner: Page;

async function createSpace(
  page: Page,
  csrf: string,
  name: string,
  sdk: string,
  files: Record<string, string>,
) {
  const created = await page.request.post("/api/repos/create", {
    data: { name, organization: "alice", type: "space", sdk, private: true },
    headers: { "X-CSRF-Token": csrf },
  });
  if (!created.ok()) throw new Error(`create ${name}: ${created.status()} ${await created.text()}`);
  const lines = [
    { key: "header", value: { summary: "site" } },
    ...Object.entries(files).map(([path, text]) => ({
      key: "file",
      value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
    })),
  ];
  const committed = await page.request.post(`/api/spaces/alice/${name}/commit/main`, {
    headers: { "X-CSRF-Token": csrf, "content-type": "application/x-ndjson" },
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  if (!committed.ok()) throw new Error(`commit ${name}: ${committed.status()} ${await committed.text()}`);
}

async function signedInPage(width: number, colorScheme: ColorScheme): Promise<Page> {
  const page = await harness.newPage({ viewport: { width, height: width < 500 ? 844 : 900 }, colorScheme });
  await signIn(page, "alice");
  await page.context().addCookies([{ ...VISIBLE_COOKIE, url: harness.hub.url }]);
  return page;
}

/** The app's frame, once its document from the spaces origin loaded. */
async function appFrame(page: Page): Promise<Frame> {
  const element = await page.getByTestId("space-app").elementHandle();
  const frame = await element?.contentFrame();
  if (!frame) throw new Error("the App tab shows no frame");
  // A frame just attached has no URL yet (""), until its first navigation commits.
  await expect.poll(() => frame.url().startsWith("http")).toBe(true);
  return frame;
}

beforeAll(async () => {
  harness = await startWebHarness({ signupPolicy: "open" });
  await signUp(harness, "alice");
  owner = await harness.newPage({ viewport: { width: 1366, height: 900 } });
  const csrf = await signIn(owner, "alice");
  await createSpace(owner, csrf, "site", "static", {
    "index.html": PAGE,
    "style.css": "body { font-family: sans-serif; color: #123; background: #fff; }",
    "app.js": appScript(harness.hub.url),
  });
  await createSpace(owner, csrf, "chat-demo", "gradio", { "app.py": "import gradio as gr\n" });
});
afterAll(async () => {
  await harness?.close();
});

describe("static spaces run in the App tab (issue 38, item 4)", () => {
  // Two page loads (desktop light, phone dark); each is then checked in the other colour scheme as well.
  for (const [width, colorScheme, other] of [
    [1366, "light", "dark"],
    [390, "dark", "light"],
  ] as const) {
    it(`renders a private static space's site, which reaches neither the hub's API nor its cookies (${width} px, ${colorScheme} and ${other})`, async () => {
      const page = await signedInPage(width, colorScheme);
      const problems = watchPage(page, { expectedStatus: 200 });
      // What the site's own attempts log (CSP refusals, its failed CORS request) is the site's, not the page's.
      const siteMessages = new Set<string>();
      const spacesOrigin = new URL(harness.hub.spacesUrl!).origin;
      page.on("console", (message) => {
        if (message.location().url.startsWith(spacesOrigin)) siteMessages.add(`console: ${message.text()}`);
      });
      await page.goto(`/spaces/${SITE}`);
      await page.getByRole("link", { name: "App", exact: true }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${SITE}/app`);
      const frame = await appFrame(page);
      expect(new URL(frame.url()).origin).toBe(spacesOrigin);
      expect(spacesOrigin).not.toBe(new URL(harness.hub.url).origin);
      const text = (id: string) => frame.locator(`#${id}`).textContent();
      await expect.poll(() => text("rendered")).toBe("App rendered");
      await expect.poll(() => text("relative")).toMatch(/^blocked: /);
      await expect.poll(() => text("absolute")).toMatch(/^blocked: /);
      await expect.poll(() => text("parent")).toMatch(/^blocked: /);
      const cookie = (await text("cookie")) ?? "";
      expect(cookie).not.toContain(VISIBLE_COOKIE.value);
      expect(cookie).toMatch(/^blocked: |^cookie: \[\]$/);
      // The site's own stylesheet loaded from its link.
      expect(await frame.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain("sans-serif");
      for (const scheme of [colorScheme, other]) {
        await page.emulateMedia({ colorScheme: scheme });
        expect(await horizontalOverflow(page), scheme).toBe(0);
        expect(await severeAxeFindings(page, scheme), scheme).toEqual([]);
      }
      expect(problems.filter((problem) => !siteMessages.has(problem) && !/whoami-v2/.test(problem))).toEqual(
        [],
      );
      await page.context().close();
    });
  }

  it("says plainly that a Gradio space does not run here, and points to its files (390 px, dark)", async () => {
    const page = await signedInPage(390, "dark");
    await page.goto(`/spaces/${GRADIO}/app`);
    const notice = page.getByTestId("space-app-unsupported");
    await expect.poll(() => notice.textContent()).toContain("does not run gradio spaces (yet)");
    await notice.getByRole("link", { name: "its files" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${GRADIO}/tree/main`);
    await page.context().close();
  });

  it("gives another user no site of a private space", async () => {
    await signUp(harness, "bob");
    const bob = await harness.newPage({ viewport: { width: 1366, height: 900 } });
    await signIn(bob, "bob");
    const response = await bob.request.get(`/api/spaces/${SITE}/app-url/main`);
    expect(response.status()).toBe(404);
    const page = await bob.goto(`/spaces/${SITE}/app`);
    expect(page?.status()).toBe(404);
  });
});

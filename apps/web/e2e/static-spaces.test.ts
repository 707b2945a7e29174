import type { Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { signIn, signUp } from "./repo-users.js";

// Issue 38, item 4: a static space's site runs in the App tab, from the spaces origin, in a sandbox. Its
// script tries the hub's API with the visitor's credentials and the hub's cookies: both fail, the app renders.
// The space's own URL opens on that tab; a space the hub does not run opens on its card
// (docs/decisions/space-app-url.md).
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

/** The names of the space's tabs in order, and the one marked current. */
async function tabs(page: Page): Promise<{ names: string[]; current: string | null }> {
  const strip = page.getByRole("navigation", { name: "Space sections" });
  await strip.getByRole("link").first().waitFor();
  const names = (await strip.getByRole("link").allTextContents()).map((name) => name.trim());
  const current = await strip.locator('[aria-current="page"]').textContent();
  return { names, current: current?.trim() ?? null };
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
    "README.md": "---\nsdk: static\n---\n# Site\n\nA static site of alice's.\n",
    "index.html": PAGE,
    "style.css": "body { font-family: sans-serif; color: #123; background: #fff; }",
    "app.js": appScript(harness.hub.url),
  });
  await createSpace(owner, csrf, "chat-demo", "gradio", {
    "README.md": "---\nsdk: gradio\n---\n# Chat demo\n\nA Gradio demo of alice's.\n",
    "app.py": "import gradio as gr\n",
  });
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
      // Followed from elsewhere, the space's URL shows its app: the App tab first and current.
      await page.goto(`/spaces/${SITE}`);
      const frame = await appFrame(page);
      expect(new URL(page.url()).pathname).toBe(`/spaces/${SITE}`);
      // Settings shows once the session says alice may write.
      await expect
        .poll(() => tabs(page))
        .toEqual({
          names: ["App", "Space card", "Files and versions", "Community", "Settings"],
          current: "App",
        });
      expect(await page.title()).toBe(`Space ${SITE} · Modelhub`);
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

  it("keeps a static space's card one tab away, and its older App link leads to the space's URL", async () => {
    const page = await signedInPage(1366, "light");
    const problems = watchPage(page, { expectedStatus: 200 });
    const spacesOrigin = new URL(harness.hub.spacesUrl!).origin;
    const siteMessages = new Set<string>();
    page.on("console", (message) => {
      if (message.location().url.startsWith(spacesOrigin)) siteMessages.add(`console: ${message.text()}`);
    });
    await page.goto(`/spaces/${SITE}`);
    await appFrame(page);
    await page.getByRole("link", { name: "Space card", exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${SITE}/card`);
    await page.getByRole("article", { name: "Space card" }).getByText("A static site of alice's.").waitFor();
    await expect.poll(() => tabs(page)).toMatchObject({ current: "Space card" });
    expect(await page.title()).toBe(`Card · Space ${SITE} · Modelhub`);
    // Back to the app by keyboard: the App tab is the strip's first link.
    await page.getByRole("navigation", { name: "Space sections" }).getByRole("link").first().focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${SITE}`);
    await appFrame(page);
    // Links made before the app moved to the space's URL still open it, under that URL.
    await page.goto(`/spaces/${SITE}/app`);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${SITE}`);
    await appFrame(page);
    // What the site's own attempts log is the site's, not the page's (as above).
    expect(problems.filter((problem) => !siteMessages.has(problem) && !/whoami-v2/.test(problem))).toEqual(
      [],
    );
    await page.context().close();
  });

  it("opens a Gradio space on its card, its App tab saying why it does not run here (1366 px, light)", async () => {
    const page = await signedInPage(1366, "light");
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto(`/spaces/${GRADIO}`);
    await page.getByRole("article", { name: "Space card" }).getByText("A Gradio demo of alice's.").waitFor();
    await expect
      .poll(() => tabs(page))
      .toEqual({
        names: ["Space card", "Files and versions", "Community", "App", "Settings"],
        current: "Space card",
      });
    expect(await page.getByTestId("space-app").count()).toBe(0);
    expect(await page.title()).toBe(`Space ${GRADIO} · Modelhub`);
    await page.getByRole("link", { name: "App", exact: true }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${GRADIO}/app`);
    await page.getByTestId("space-app-unsupported").waitFor();
    // Its card has one address: the space's own.
    await page.goto(`/spaces/${GRADIO}/card`);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/spaces/${GRADIO}`);
    await page.getByRole("article", { name: "Space card" }).waitFor();
    expect(await horizontalOverflow(page)).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

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
    for (const path of [`/spaces/${SITE}`, `/spaces/${SITE}/app`, `/spaces/${SITE}/card`]) {
      const page = await bob.goto(path);
      expect(page?.status(), path).toBe(404);
    }
    await bob.context().close();
  });
});

/**
 * The embed in a real browser: Debian's chromium loads the script from a hub on 127.0.0.1 into pages served
 * from localhost (another origin) whose CSS tries to hide and restyle everything. To keep the run short,
 * most options are checked on one "gallery" page holding one widget per option set.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOSTILE_PRODUCTS, TOP_PRODUCTS } from "./__fixtures__/products.js";
import { EMPTY_TEXT, UNAVAILABLE_TEXT } from "./script/render.js";
import {
  HOSTILE_CSS,
  type HostSite,
  hostPage,
  launchChromium,
  type RunningServer,
  startHostSite,
  startHub,
  startRawDataServer,
  type TestHub,
} from "./testing/embed-harness.js";
import { columnCount, readWidget, type WidgetState, waitForWidgets } from "./testing/widget-page.js";

const LIGHT = { background: "rgb(255, 255, 255)", color: "rgb(15, 23, 42)" };
const DARK = { background: "rgb(15, 23, 42)", color: "rgb(241, 245, 249)" };
const PREFIX = "[modelhub-widget]";
const XSS_TITLE = '<img src=x onerror="window.__pwned=1"></style><script>window.__pwned=2</script>';
const PERMANENT = "google/gemma-2-2b-it,openai/whisper-large-v3,nobody/missing,meta-llama/Llama-Guard-3-8B";

let browser: Browser;
let hub: TestHub;
let site: HostSite;
const contexts: BrowserContext[] = [];
const servers: RunningServer[] = [];

beforeAll(async () => {
  [browser, hub, site] = await Promise.all([launchChromium(), startHub(TOP_PRODUCTS), startHostSite()]);
}, 120_000);

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await Promise.all([hub?.close(), site?.close(), ...servers.map((server) => server.close())]);
}, 30_000);

interface Opened {
  page: Page;
  errors: Error[];
  logs: string[];
  requests: string[];
}

interface OpenOptions {
  css?: string;
  head?: string;
  colorScheme?: "light" | "dark";
  width?: number;
  /** How many widgets to wait for (0: do not wait). */
  widgets?: number;
}

const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");

function scriptTag(query: string, hubUrl = hub.url): string {
  return `<script src="${attribute(`${hubUrl}/widget/top-products.js${query ? `?${query}` : ""}`)}" async></script>`;
}

/** A page slot the hostile CSS lets the page itself show; the widget renders inside it. */
function slot(id: string, query: string, hubUrl?: string): string {
  return `<section class="slot" id="${id}">${scriptTag(query, hubUrl)}</section>`;
}

async function openPage(body: string, options: OpenOptions = {}): Promise<Opened> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? "light",
    viewport: { width: options.width ?? 1000, height: 900 },
  });
  contexts.push(context);
  const page = await context.newPage();
  const opened: Opened = { page, errors: [], logs: [], requests: [] };
  page.on("pageerror", (error) => opened.errors.push(error));
  page.on("console", (message) => opened.logs.push(`${message.type()}: ${message.text()}`));
  page.on("request", (request) => opened.requests.push(request.url()));
  await page.goto(site.page(hostPage({ css: options.css ?? HOSTILE_CSS, head: options.head, body })));
  if (options.widgets !== 0) await waitForWidgets(page, options.widgets ?? 1);
  return opened;
}

const widgetLogs = (opened: Opened) => opened.logs.filter((line) => line.includes(PREFIX));
const pwned = (page: Page) => page.evaluate(() => (window as { __pwned?: unknown }).__pwned);
const schemeIs = (page: Page, scheme: string) =>
  page.waitForFunction(
    (wanted) =>
      (
        document
          .querySelector("modelhub-top-products")
          ?.shadowRoot?.querySelector(".mh") as HTMLElement | null
      )?.dataset.scheme === wanted,
    scheme,
  );

describe("one page, one widget per option set, hostile page CSS", { timeout: 60_000 }, () => {
  let gallery: Opened;
  let devHub: TestHub;
  let evilHub: TestHub;
  let rogue: RunningServer;
  const widget = (id: string): Promise<WidgetState> =>
    readWidget(gallery.page, `#${id} modelhub-top-products`);

  beforeAll(async () => {
    [devHub, evilHub, rogue] = await Promise.all([
      startHub([{ id: "dev/local-model", pipeline_tag: "fill-mask", downloads: 1 }]),
      startHub(HOSTILE_PRODUCTS),
      startRawDataServer(
        JSON.stringify({
          version: 1,
          hubUrl: "http://x",
          products: [
            { id: "a/js", owner: "a", name: "js", url: "javascript:window.__pwned=1" },
            { id: "a/data", owner: "a", name: "data", url: "data:text/html,<script>alert(1)</script>" },
            { id: "a/fine", owner: "a", name: "fine", url: "https://hub.example/a/fine" },
            { id: 42, owner: "a", name: "not a string id", url: "https://hub.example/x" },
          ],
        }),
      ),
    ]);
    servers.push(devHub, evilHub, rogue);
    const injected = `<section class="slot" id="mount"></section><script>
      const tag = document.createElement("script");
      tag.src = ${JSON.stringify(`${hub.url}/widget/top-products.js?maxProducts=1&theme=dark`)};
      tag.async = true;
      document.getElementById("mount").appendChild(tag);
    </script>`;
    const body = [
      '<p id="before">before</p>',
      slot("default", ""),
      '<p id="after">after</p>',
      slot("max-products", "maxProducts=2"),
      slot("two-columns", "maxColumns=2"),
      slot("four-columns", "maxColumns=4&maxProducts=8"),
      slot("vertical", "direction=vertical&maxColumns=3"),
      slot("titled", "title=Our%20favourite%20models"),
      slot("untitled", "noTitle"),
      slot("frameless", "noBorder&noShadow&noPadding"),
      slot("self-no-credits", "openSelf&noCredits"),
      slot("dark", "theme=dark"),
      slot("permanent", `permanent=${PERMANENT}`),
      slot("permanent-capped", "maxProducts=1&permanent=google/gemma-2-2b-it,openai/whisper-large-v3"),
      slot("owned", "owned=meta-llama"),
      slot("owned-empty", "owned=nobody"),
      slot("debug", "debug&maxProducts=lots&theme=purple&direction=up&hub=http://x.test"),
      slot("pinned", "version=1"),
      scriptTag("container=target&noCredits"),
      injected,
      slot("dev-hub", `devMode&hub=${encodeURIComponent(devHub.url)}`),
      slot("xss-title", `title=${encodeURIComponent(XSS_TITLE)}`),
      slot("xss-products", "", evilHub.url),
      slot("rogue-links", `devMode&hub=${encodeURIComponent(rogue.url)}`),
      '<section class="slot" id="target"></section>',
    ].join("\n");
    gallery = await openPage(body, { widgets: 22 });
  }, 120_000);

  it("renders the top 6 in 3 columns where its tag stands, untouched by the page's CSS", async () => {
    const state = await widget("default");
    expect(state.names).toEqual(TOP_PRODUCTS.slice(0, 6).map((product) => product.id.split("/")[1]));
    expect(state.owners[0]).toBe("meta-llama");
    expect(state.tasks[0]).toBe("text-generation");
    expect(columnCount(state.cards)).toBe(3);
    for (const card of state.cards) expect(card.height).toBeGreaterThan(40);
    expect(state.title).toBe("Top products");
    expect(state.style).toMatchObject({
      hostDisplay: "block",
      ...LIGHT,
      borderTopWidth: "1px",
      paddingTop: "16px",
      titleColor: LIGHT.color,
      titleFontSize: "16px",
    });
    expect(state.style.boxShadow).not.toBe("none");
    const around = await gallery.page.evaluate(() => {
      const host = document.querySelector("#default modelhub-top-products")!;
      return [host.previousElementSibling?.tagName, host.parentElement?.previousElementSibling?.id];
    });
    expect(around).toEqual(["SCRIPT", "before"]);
    expect(await gallery.page.locator("#default modelhub-top-products .card").first().isVisible()).toBe(true);
    expect(hub.queries).toContainEqual({ limit: 6 });
  });

  it("links every product and the credits in a new tab with rel=noopener", async () => {
    const state = await widget("default");
    expect(state.links[0]).toEqual({
      href: `${hub.url}/meta-llama/Llama-3.1-8B-Instruct`,
      target: "_blank",
      rel: "noopener",
    });
    expect(state.links.every((link) => link.target === "_blank" && link.rel === "noopener")).toBe(true);
    expect(state.credits).toEqual({ href: `${hub.url}/`, target: "_blank", text: "Powered by Modelhub" });
  });

  it("openSelf keeps links in the same tab; noCredits drops the credits", async () => {
    const state = await widget("self-no-credits");
    expect(state.links).toHaveLength(6);
    expect(state.links.every((link) => link.target === "" && link.rel === "")).toBe(true);
    expect(state.credits).toBeNull();
  });

  it("maxProducts limits the count and the request", async () => {
    expect((await widget("max-products")).names).toEqual(["Llama-3.1-8B-Instruct", "whisper-large-v3"]);
    expect(hub.queries).toContainEqual({ limit: 2 });
  });

  it("maxColumns sets the most columns", async () => {
    expect(columnCount((await widget("two-columns")).cards)).toBe(2);
    const four = await widget("four-columns");
    expect(four.names).toHaveLength(8);
    expect(columnCount(four.cards)).toBe(4);
  });

  it("direction=vertical stacks one product per row", async () => {
    const state = await widget("vertical");
    expect(state.classes).toContain("vertical");
    expect(columnCount(state.cards)).toBe(1);
    const ys = state.cards.map((card) => card.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(new Set(ys).size).toBe(6);
  });

  it("title sets the heading; noTitle removes it", async () => {
    expect((await widget("titled")).title).toBe("Our favourite models");
    const untitled = await widget("untitled");
    expect(untitled.title).toBeNull();
    expect(untitled.tags).not.toContain("h2");
  });

  it("noBorder, noShadow and noPadding remove the frame", async () => {
    expect((await widget("frameless")).style).toMatchObject({
      borderTopWidth: "0px",
      boxShadow: "none",
      paddingTop: "0px",
    });
  });

  it("theme=dark overrides a light system scheme", async () => {
    const state = await widget("dark");
    expect(state.scheme).toBe("dark");
    expect(state.style).toMatchObject(DARK);
    expect((await widget("default")).style).toMatchObject(LIGHT);
  });

  it("permanent shows exactly those models in that order", async () => {
    expect((await widget("permanent")).names).toEqual([
      "gemma-2-2b-it",
      "whisper-large-v3",
      "Llama-Guard-3-8B",
    ]);
    expect(hub.queries).toContainEqual({ limit: 4, ids: PERMANENT.split(",") });
    expect((await widget("permanent-capped")).names).toEqual(["gemma-2-2b-it"]);
  });

  it("owned shows only one owner's models, in ranking order; none gives a quiet note", async () => {
    const state = await widget("owned");
    expect(state.names).toEqual(["Llama-3.1-8B-Instruct", "Llama-3.2-1B", "Llama-Guard-3-8B"]);
    expect(new Set(state.owners)).toEqual(new Set(["meta-llama"]));
    expect((await widget("owned-empty")).note).toBe(EMPTY_TEXT);
  });

  it("debug logs what it did, namespaced; invalid values fall back to defaults with a warning", async () => {
    const state = await widget("debug");
    expect(state.names).toHaveLength(6);
    expect(state.scheme).toBe("light");
    expect(columnCount(state.cards)).toBe(3);
    const logs = widgetLogs(gallery);
    expect(logs.some((line) => line.startsWith(`info: ${PREFIX} script version 1`))).toBe(true);
    for (const name of ["maxProducts", "theme", "direction"]) {
      expect(logs.some((line) => line.startsWith(`warning: ${PREFIX} ${name}: `))).toBe(true);
    }
    expect(logs).toContain(`warning: ${PREFIX} hub: only used with devMode; ignored`);
    expect(logs.some((line) => line.startsWith(`info: ${PREFIX} showing 6 products`))).toBe(true);
    // Only the debug widget speaks: the 21 others rendered without a word.
    expect(logs.filter((line) => line.includes("showing"))).toHaveLength(1);
  });

  it("version=1 pins the script", async () => {
    expect((await widget("pinned")).names).toHaveLength(6);
  });

  it("renders into the container it names, even one that comes later in the page", async () => {
    const state = await widget("target");
    expect(state.names).toHaveLength(6);
    expect(state.credits).toBeNull();
  });

  it("finds its own tag when another script injects it, with its own options", async () => {
    expect(await widget("mount")).toMatchObject({ names: ["Llama-3.1-8B-Instruct"], scheme: "dark" });
  });

  it("devMode with hub= takes data and links from the development hub", async () => {
    const state = await widget("dev-hub");
    expect(state.names).toEqual(["local-model"]);
    expect(state.links[0]?.href).toBe(`${devHub.url}/dev/local-model`);
    expect(state.credits?.href).toBe(`${devHub.url}/`);
  });

  it("a hostile title is shown as text", async () => {
    const state = await widget("xss-title");
    expect(state.title).toBe(XSS_TITLE);
    expect(state.tags.filter((tag) => ["img", "script", "svg"].includes(tag))).toEqual([]);
  });

  it("hostile model names and tasks are shown as text; links stay on the hub", async () => {
    const state = await widget("xss-products");
    expect(state.names).toEqual(
      HOSTILE_PRODUCTS.map((product) => product.id.slice(product.id.indexOf("/") + 1)),
    );
    // The third id's first slash is inside "</b>": its owner is what comes before it.
    expect(state.owners).toEqual(["evil", "evil", "<b>bold<"]);
    expect(state.tasks).toContain("<script>window.__pwned=2</script>");
    expect(state.tags.filter((tag) => ["img", "script", "svg", "b"].includes(tag))).toEqual([]);
    for (const link of state.links) expect(link.href.startsWith(`${evilHub.url}/`)).toBe(true);
  });

  it("drops products whose link is not http(s)", async () => {
    expect((await widget("rogue-links")).names).toEqual(["fine"]);
  });

  it("nothing injected ran and the page saw no error", async () => {
    await gallery.page.waitForTimeout(200);
    expect(await pwned(gallery.page)).toBeUndefined();
    expect(gallery.errors).toEqual([]);
  });
});

describe("colour scheme and screen size", { timeout: 60_000 }, () => {
  it("theme=auto follows prefers-color-scheme and its changes; theme=light stays light", async () => {
    const { page } = await openPage(`${scriptTag("")}<p>x</p>${scriptTag("theme=light")}`, {
      colorScheme: "dark",
      widgets: 2,
    });
    const light = "modelhub-top-products:nth-of-type(2)";
    expect((await readWidget(page)).style).toMatchObject(DARK);
    expect((await readWidget(page, light)).style).toMatchObject(LIGHT);
    await page.emulateMedia({ colorScheme: "light" });
    await schemeIs(page, "light");
    expect((await readWidget(page)).style).toMatchObject(LIGHT);
    await page.emulateMedia({ colorScheme: "dark" });
    await schemeIs(page, "dark");
    expect((await readWidget(page)).style).toMatchObject(DARK);
    expect((await readWidget(page, light)).style).toMatchObject(LIGHT);
  });

  it("the grid drops to one column on a phone-width page", async () => {
    const { page } = await openPage(scriptTag("maxColumns=3"), { width: 380 });
    expect(columnCount((await readWidget(page)).cards)).toBe(1);
  });
});

describe("failures stay quiet", { timeout: 60_000 }, () => {
  it("an unknown version renders nothing and breaks nothing", async () => {
    const opened = await openPage(`${scriptTag("version=99")}<script>window.__after = true</script>`, {
      widgets: 0,
    });
    await opened.page.waitForLoadState("load");
    expect(await opened.page.locator("modelhub-top-products").count()).toBe(0);
    expect(await opened.page.evaluate(() => (window as { __after?: boolean }).__after)).toBe(true);
    expect(opened.errors).toEqual([]);
  });

  it("the data endpoint failing (503) shows a quiet note; the page goes on", async () => {
    hub.down = true;
    try {
      const opened = await openPage(`${scriptTag("")}<script>window.__after = true</script>`);
      const state = await readWidget(opened.page);
      expect(state.note).toBe(UNAVAILABLE_TEXT);
      expect(state.title).toBe("Top products");
      expect(state.credits).not.toBeNull();
      expect(await opened.page.evaluate(() => (window as { __after?: boolean }).__after)).toBe(true);
      expect(opened.errors).toEqual([]);
      expect(widgetLogs(opened)).toEqual([]);
    } finally {
      hub.down = false;
    }
  });

  it("an unreachable hub, a malformed answer and the default dev hub end in the note", async () => {
    const closed = await startRawDataServer("{}");
    await closed.close();
    const broken = await startRawDataServer("<html>not json</html>", "text/html");
    servers.push(broken);
    const opened = await openPage(
      [
        slot("unreachable", `devMode&debug&hub=${encodeURIComponent(closed.url)}`),
        slot("malformed", `devMode&hub=${encodeURIComponent(broken.url)}`),
        slot("dev-default", "devMode&maxProducts=2"),
      ].join(""),
      { widgets: 3 },
    );
    expect((await readWidget(opened.page, "#unreachable modelhub-top-products")).note).toBe(UNAVAILABLE_TEXT);
    expect(widgetLogs(opened).some((line) => line.includes("products unavailable"))).toBe(true);
    expect((await readWidget(opened.page, "#malformed modelhub-top-products")).note).toBe(UNAVAILABLE_TEXT);
    // Nothing is expected to listen on the dev port here; what matters is where the request went.
    expect(opened.requests).toContain("http://localhost:5173/api/widget/top-products?limit=2");
    expect(opened.errors).toEqual([]);
  });
});

describe("encapsulation", { timeout: 60_000 }, () => {
  it("the widget's CSS does not leak into the page", async () => {
    const body =
      '<h2 class="title">Page heading</h2><a class="card" href="#">page link</a><div class="mh">x</div>';
    const measure = (page: Page) =>
      page.evaluate(() =>
        [".title", ".card", ".mh"].map((selector) => {
          const style = getComputedStyle(document.querySelector(selector)!);
          return [style.display, style.fontSize, style.padding, style.color, style.backgroundColor].join("|");
        }),
      );
    const without = await openPage(body, { css: "", widgets: 0 });
    const withWidget = await openPage(`${body}${scriptTag("")}`, { css: "" });
    expect(await measure(withWidget.page)).toEqual(await measure(without.page));
  });
});

describe("strict Content-Security-Policy", { timeout: 60_000 }, () => {
  it("renders styled on a page that forbids inline styles", async () => {
    const policy = `default-src 'none'; script-src ${hub.url}; connect-src ${hub.url}; style-src 'self'`;
    const { page, errors, logs } = await openPage(scriptTag(""), {
      css: "",
      head: `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    });
    // The policy is in force: it blocked the page's own inline <style>.
    expect(logs.some((line) => line.includes("Content Security Policy"))).toBe(true);
    const state = await readWidget(page);
    expect(state.names).toHaveLength(6);
    expect(columnCount(state.cards)).toBe(3);
    expect(state.style).toMatchObject({ ...LIGHT, paddingTop: "16px", borderTopWidth: "1px" });
    expect(errors).toEqual([]);
  });
});

describe("accessibility", { timeout: 60_000 }, () => {
  it.each(["light", "dark"] as const)(
    "axe finds no serious or critical violation (%s system scheme)",
    async (scheme) => {
      const body = `<main><h1>A blog</h1>${scriptTag("")}${scriptTag("theme=dark&direction=vertical&maxProducts=3")}${scriptTag("theme=light&title=Picks")}</main>`;
      const { page } = await openPage(body, { css: "", colorScheme: scheme, widgets: 3 });
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
        .map(
          (violation) =>
            `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
        );
      expect(serious).toEqual([]);
    },
  );
});

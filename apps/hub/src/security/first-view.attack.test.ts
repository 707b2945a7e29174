/**
 * Attacks on the first view the hub writes into a model's page (http/first-view.ts), against a real hub on
 * loopback with raw HTTP:
 * - a private model's card written into the page of anyone who asks, or kept by a shared cache and handed to
 *   the next caller;
 * - a hostile card (raw HTML, script, event handlers, `javascript:` links, markup in its text) reaching the
 *   page as markup: the first view is HTML the hub writes, not a tree React escapes.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { type Caller, call, commit } from "../repos/__fixtures__/lfs-commits.js";

const WEB_INDEX = fileURLToPath(new URL("../../../web/index.html", import.meta.url));
// The web app's page as the hub serves it (its index.html; the scripts it names need not exist here).
const web = makeTempDir();
mkdirSync(join(web.dir, "assets"), { recursive: true });
copyFileSync(WEB_INDEX, join(web.dir, "index.html"));

const hub = useTestHub({ webDist: web.dir });
let owner: Caller;
let outsider: Caller;

const SECRET = "Quarterly figures of the private model, not for anyone else";
const HOSTILE = [
  "# Hostile card",
  "",
  `Plain words first. ${SECRET.replace("private", "public")}.`,
  "",
  '<script>alert("raw")</script><img src=x onerror="alert(1)">',
  "",
  '[a link](javascript:alert(2)) and [another](https://example.org/"onmouseover="alert(3))',
  "",
  'Text that looks like markup: &lt;script&gt; <b onclick="alert(4)">bold</b> "quotes" \'apostrophes\'',
  "",
  "![tracker](https://tracker.example.net/pixel.png)",
  "",
  "```html",
  "<script>alert(5)</script>",
  "```",
].join("\n");

const file = (path: string, content: string) => ({
  key: "file",
  value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
});

async function page(path: string, token?: string): Promise<Response> {
  return fetch(`${hub.url}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** The first view of a served page: the markup between its element and the app's root. */
function firstViewOf(html: string): string {
  const start = html.indexOf('<div id="first-view"');
  return start < 0 ? "" : html.slice(start, html.indexOf('<div id="root">'));
}

beforeAll(async () => {
  owner = { url: hub.url, token: await userToken(hub.store, "cardowner") };
  outsider = { url: hub.url, token: await userToken(hub.store, "outsider") };
  for (const [name, isPrivate, card] of [
    ["cardowner/secret-card", true, `# Secret\n\n${SECRET}.\n`],
    ["cardowner/hostile-card", false, HOSTILE],
  ] as const) {
    expect((await call(owner, "POST", "/api/repos/create", { name, private: isPrivate })).status).toBe(200);
    await commit(owner, name, "card", [file("README.md", `---\nlicense: mit\n---\n${card}`)]);
  }
});

describe("a private model's first view", () => {
  it("is written for its owner only, and never kept by a shared cache", async () => {
    const mine = await page("/cardowner/secret-card", owner.token);
    expect(mine.status).toBe(200);
    expect(firstViewOf(await mine.text())).toContain(SECRET);
    expect(mine.headers.get("Cache-Control")).toBe("private, no-cache");
    expect(mine.headers.get("ETag")).toBeNull();

    for (const token of [outsider.token, undefined]) {
      const theirs = await page("/cardowner/secret-card", token);
      expect(theirs.status).toBe(404);
      const html = await theirs.text();
      expect(html).not.toContain(SECRET);
      expect(firstViewOf(html)).toBe("");
    }
  });
});

describe("a hostile card's first view", () => {
  it("carries no script, no event handler, no javascript: URL, and escapes the card's text", async () => {
    const response = await page("/cardowner/hostile-card");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
    const view = firstViewOf(await response.text());
    expect(view).toContain("Plain words first.");
    expect(view).not.toMatch(/<script/i);
    expect(view).not.toMatch(/\son\w+=/i);
    expect(view).not.toMatch(/javascript:/i);
    expect(view).not.toContain("<b ");
    // The code block's text and the card's look-alike markup are text, escaped.
    expect(view).toContain("&#60;script&#62;alert(5)&#60;/script&#62;");
    expect(view).toContain(
      "Text that looks like markup: &#60;script&#62; bold &#34;quotes&#34; &#39;apostrophes&#39;",
    );
    // An image from an origin the operator did not allow is a link, as the app shows it: no request to it.
    expect(view).not.toMatch(/<img[^>]+tracker\.example\.net/);
    expect(view).toContain("(image on tracker.example.net)");
    // Every attribute value is quoted and closed: the link's quote did not open a new attribute.
    expect(view).not.toMatch(/"onmouseover/);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { seedAccounts } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { webPagePolicy } from "../http/content-security-policy.js";
import { createSpaceAppLinks } from "./space-app-links.js";

const hub = useTestHub();
let tokens: Awaited<ReturnType<typeof seedAccounts>>["tokens"];

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createSpace(
  id: string,
  files: Record<string, string>,
  options: { private?: boolean; sdk?: string } = {},
) {
  const [organization, name] = id.split("/");
  const admin = { ...bearer(tokens.adaWrite), "Content-Type": "application/json" };
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({
      type: "space",
      organization,
      name,
      private: options.private ?? false,
      sdk: options.sdk ?? "static",
    }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const committed = await fetch(`${hub.url}/api/spaces/${id}/commit/main`, {
    method: "POST",
    headers: { ...bearer(tokens.adaWrite), "Content-Type": "application/x-ndjson" },
    body: [
      { key: "header", value: { summary: "site" } },
      ...Object.entries(files).map(([path, text]) => ({
        key: "file",
        value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
      })),
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(committed.status, await committed.clone().text()).toBe(200);
}

const appUrl = (id: string, headers: Record<string, string> = {}) =>
  fetch(`${hub.url}/api/spaces/${id}/app-url/main`, { headers });

async function siteLink(id: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await appUrl(id, headers);
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { url: string }).url;
}

beforeAll(async () => {
  ({ tokens } = await seedAccounts(hub.store));
  await createSpace("acme/site", {
    "index.html": '<!doctype html><title>site</title><link rel="stylesheet" href="style.css"><h1>Hello</h1>',
    "style.css": "h1 { color: teal }",
    "js/app.js": "document.title = 'ran';",
  });
  await createSpace("acme/secret-site", { "index.html": "<h1>secret</h1>" }, { private: true });
  await createSpace("acme/entry-site", {
    "README.md": "---\nsdk: static\napp_file: web/main.html\n---\n",
    "web/main.html": "<h1>entry</h1>",
  });
  await createSpace("acme/empty-site", { "notes.txt": "no page" });
  await createSpace("acme/gradio-app", { "app.py": "import gradio" }, { sdk: "gradio" });
}, 30_000);

describe("static spaces' sites on the spaces origin", () => {
  it("serves a public static space's files under its link, sandboxed, framed only by the hub", async () => {
    const url = await siteLink("acme/site");
    expect(url.startsWith(`${hub.spacesUrl}/`)).toBe(true);
    expect(new URL(url).origin).not.toBe(new URL(hub.url).origin);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await page.text()).toContain("<h1>Hello</h1>");
    const policy = page.headers.get("content-security-policy") ?? "";
    expect(policy).toMatch(/^sandbox allow-scripts /);
    expect(policy).not.toContain("allow-same-origin");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).toContain(`frame-ancestors ${new URL(hub.url).origin}`);
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    // Relative URLs stay inside the link.
    const script = await fetch(new URL("js/app.js", url));
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain("ran");
    const root = new URL("./", url).href;
    expect(await (await fetch(root)).text()).toContain("<h1>Hello</h1>");
    const bare = await fetch(root.replace(/\/$/, ""), { redirect: "manual" });
    expect(bare.status).toBe(308);
  });

  it("honours app_file, says why a space without a page or with another SDK has no site", async () => {
    const entry = await siteLink("acme/entry-site");
    expect(entry.endsWith("/web/main.html")).toBe(true);
    expect(await (await fetch(entry)).text()).toContain("entry");
    const empty = await appUrl("acme/empty-site");
    expect(empty.status).toBe(404);
    expect(((await empty.json()) as { error: string }).error).toContain("app_file");
    const gradio = await appUrl("acme/gradio-app");
    expect(gradio.status).toBe(422);
    expect(((await gradio.json()) as { error: string }).error).toContain("does not run gradio spaces");
    const model = await fetch(`${hub.url}/api/models/acme/site/app-url/main`, {
      headers: bearer(tokens.adaWrite),
    });
    expect(model.status).toBe(404);
  });

  it("mints a private space's link only for those who may read it", async () => {
    expect((await appUrl("acme/secret-site")).status).toBe(401);
    expect((await appUrl("acme/secret-site", bearer(tokens.ottoWrite))).status).toBe(404);
    const url = await siteLink("acme/secret-site", bearer(tokens.raeRead));
    expect(await (await fetch(url)).text()).toContain("secret");
  });

  it("refuses forged, re-signed and expired links, and reads no file outside the linked space", async () => {
    const url = await siteLink("acme/site");
    const token = new URL(url).pathname.split("/")[1]!;
    const [payload, signature] = token.split(".") as [string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`;
    expect((await fetch(`${hub.spacesUrl}/${payload}.${flipped}/index.html`)).status).toBe(401);
    // Another space's key in the payload, under this link's signature.
    const grant = JSON.parse(Buffer.from(payload, "base64url").toString()) as { repo: number };
    const other = Buffer.from(JSON.stringify({ ...grant, repo: grant.repo + 1 })).toString("base64url");
    expect((await fetch(`${hub.spacesUrl}/${other}.${signature}/index.html`)).status).toBe(401);
    // Signed with the hub's key, but expired.
    const links = createSpaceAppLinks({ meta: hub.store.meta });
    const expired = await links.sign({
      ...(grant as { repo: number; commit: string }),
      expires: Date.now() - 1,
    });
    const stale = await fetch(`${hub.spacesUrl}/${expired}/index.html`);
    expect(stale.status).toBe(401);
    expect(await stale.text()).toContain("expired");
    // The private space's page is not a file of this one, whatever the path says.
    for (const path of ["../secret-site/index.html", "%2e%2e/index.html", "README.md/../../index.html"]) {
      const response = await fetch(`${hub.spacesUrl}/${token}/${path}`);
      expect(await response.text(), path).not.toContain("secret");
    }
  });

  it("ignores the hub's credentials: the spaces origin answers no API and shares nothing", async () => {
    for (const path of ["/api/whoami-v2", "/api/spaces/acme/secret-site", "/"]) {
      const response = await fetch(`${hub.spacesUrl}${path}`, { headers: bearer(tokens.adaWrite) });
      // Not a link: refused (401) or not found, never an answer on the caller's behalf.
      expect([401, 404], path).toContain(response.status);
      expect(await response.text(), path).not.toMatch(/"name"|ada/);
      expect(response.headers.get("access-control-allow-origin"), path).toBeNull();
      expect(response.headers.get("content-security-policy"), path).toMatch(/^sandbox /);
    }
  });

  it("lets the hub's pages frame the spaces origin and nothing else", () => {
    const policy = webPagePolicy([], [new URL(hub.spacesUrl!).origin]);
    expect(policy).toContain(`frame-src 'self' ${new URL(hub.spacesUrl!).origin};`);
    expect(policy).toContain("frame-ancestors 'none'");
  });
});

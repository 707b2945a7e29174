import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { expectSound } from "./page-expectations.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "./repo-seed.js";
import { signedInPage } from "./repo-users.js";

/**
 * Storage usage where it is shown (issue 39, quotas): a user's settings (used of the quota, private and
 * public apart, pending), an organization's page for its admins only, and the site administration's list of
 * the owners using the most storage. Against a real hub with quotas, figures compared with the API's; each
 * page at 1366 and 390 px in both themes: no sideways scroll, no severe axe finding, no console error.
 */
const PASSWORD = "correct horse battery";
const VIEWS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
].flatMap((viewport) =>
  (["light", "dark"] as ColorScheme[]).map((colorScheme) => ({ viewport, colorScheme })),
);
/** ada's private quota: her 60 kB private model fills over 60% of it; acme's public quota: 90 kB. */
const QUOTAS = { user: { private: 100_000 }, organization: { public: 90_000 }, owners: {} };

let harness: WebHarness;

async function call(method: string, path: string, token: string, body?: unknown, type = "application/json") {
  const response = await fetch(`${harness.hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": type },
    body: typeof body === "string" || body === undefined ? body : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

async function commitFile(token: string, id: string, bytes: number) {
  const lines = [
    { key: "header", value: { summary: "Add weights" } },
    {
      key: "file",
      value: { path: "weights.bin", content: randomBytes(bytes).toString("base64"), encoding: "base64" },
    },
  ];
  await call(
    "POST",
    `/api/models/${id}/commit/main`,
    token,
    lines.map((line) => JSON.stringify(line)).join("\n"),
    "application/x-ndjson",
  );
}

beforeAll(async () => {
  harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN, storageQuotas: QUOTAS });
  const { token } = await seedRepoPages(harness);
  await call("POST", "/api/admin/users", SEED_ADMIN_TOKEN, { name: "bob", password: PASSWORD });
  await call("POST", "/api/admin/users", SEED_ADMIN_TOKEN, {
    name: "root",
    password: PASSWORD,
    isAdmin: true,
  });
  // bob reads acme's repositories but does not run the organization: its storage is not shown to him.
  await call("PUT", `/api/organizations/${SEEDED.org}/members/bob`, token, { role: "read" });
  await call("POST", "/api/repos/create", token, {
    type: "model",
    name: "ada/private-weights",
    private: true,
  });
  await commitFile(token, "ada/private-weights", 60_000);
  await call("POST", "/api/repos/create", token, { type: "model", name: `${SEEDED.org}/open-weights` });
  await commitFile(token, `${SEEDED.org}/open-weights`, 40_000);
}, 120_000);
afterAll(() => harness?.close());

const signedIn = (name: string, view = VIEWS[0]!) => signedInPage(harness, name, view, PASSWORD);

const usageOf = async (owner: string) =>
  (await call("GET", `/api/quotas/${owner}`, SEED_ADMIN_TOKEN)) as {
    private: { used: number; quota: number | null };
    public: { used: number; quota: number | null };
  };

describe("storage usage pages", () => {
  it("shows a user their storage in settings: used of the quota, private and public apart", {
    timeout: 120_000,
  }, async () => {
    const ada = await usageOf(SEEDED.user);
    expect(ada.private.quota).toBe(100_000);
    for (const view of VIEWS) {
      const { page, problems } = await signedIn(SEEDED.user, view);
      await page.goto("/settings/storage");
      await expect.poll(() => page.title()).toBe("Storage · Settings · Modelhub");
      const meter = page.getByRole("meter", { name: "Private repositories: storage used" });
      await meter.waitFor();
      expect(Number(await meter.getAttribute("aria-valuenow"))).toBe(ada.private.used);
      expect(Number(await meter.getAttribute("aria-valuemax"))).toBe(100_000);
      // 60 kB of weights and a small .gitattributes: "6x.x kB of 100 kB".
      await page
        .getByText(/^6\d(\.\d+)? kB of 100 kB$/)
        .first()
        .waitFor();
      // No public quota for a user: no meter, the bytes only.
      await page
        .getByText(/used · no quota$/)
        .first()
        .waitFor();
      expect(await page.getByRole("meter").count()).toBe(1);
      await page.getByText("No upload pending.").first().waitFor();
      await expectSound(page, view.colorScheme);
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it("shows an organization's storage to its admins only", { timeout: 120_000 }, async () => {
    const acme = await usageOf(SEEDED.org);
    expect(acme.public.quota).toBe(90_000);
    for (const view of VIEWS) {
      const { page, problems } = await signedIn(SEEDED.user, view);
      await page.goto(`/organizations/${SEEDED.org}`);
      const storage = page.getByRole("region", { name: "Storage" });
      const meter = storage.getByRole("meter", { name: "Public repositories: storage used" });
      await meter.waitFor();
      expect(Number(await meter.getAttribute("aria-valuenow"))).toBe(acme.public.used);
      await expectSound(page, view.colorScheme);
      expect(problems).toEqual([]);
      await page.context().close();
    }
    // bob, a reader of acme: the members, no storage.
    const { page: bob, problems } = await signedIn("bob");
    await bob.goto(`/organizations/${SEEDED.org}`);
    await bob.getByRole("list", { name: "Members" }).waitFor();
    await bob.waitForLoadState("networkidle");
    expect(await bob.getByRole("region", { name: "Storage" }).count()).toBe(0);
    expect(await bob.getByRole("meter").count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it("lists the owners using the most storage to site administrators", { timeout: 120_000 }, async () => {
    const ada = await usageOf(SEEDED.user);
    const acme = await usageOf(SEEDED.org);
    const totals = [
      [SEEDED.user, ada.private.used + ada.public.used],
      [SEEDED.org, acme.private.used + acme.public.used],
    ].sort((a, b) => Number(b[1]) - Number(a[1]));
    for (const view of VIEWS) {
      const { page, problems } = await signedIn("root", view);
      await page.goto("/admin/storage");
      await expect.poll(() => page.title()).toBe("Storage · Administration · Modelhub");
      const rows = page.getByRole("region", { name: "Storage per owner" }).getByRole("row");
      await rows.nth(2).waitFor();
      // Most first: ada and acme in the order of their totals (the catalogue's demo repositories, owned by
      // no account, are listed too).
      const owners = await rows.getByRole("rowheader").getByRole("link").allTextContents();
      expect(owners.filter((owner) => owner === SEEDED.user || owner === SEEDED.org)).toEqual(
        totals.map(([owner]) => owner),
      );
      await rows
        .filter({ hasText: SEEDED.user })
        .getByText(/of 100 kB \(6\d%\)/)
        .waitFor();
      await expectSound(page, view.colorScheme);
      expect(problems).toEqual([]);
      await page.context().close();
    }
    // ada (an organization admin, not a site admin) gets the not-found page.
    const { page } = await signedIn(SEEDED.user);
    await page.goto("/admin/storage");
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByRole("region", { name: "Storage per owner" }).count()).toBe(0);
    await page.context().close();
  });
});

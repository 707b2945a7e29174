import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import {
  focusedOption,
  horizontalOverflow,
  popoversOutsideViewport,
  severeAxeFindings,
  watchPage,
} from "./page-checks.js";
import { SEED_ADMIN_TOKEN, SEEDED, seedRepoPages } from "./repo-seed.js";
import { signIn } from "./repo-users.js";

/**
 * Dataset and space pages, the new-repository pages, the owners' pages and the lists, in Chromium against a
 * real hub: ada creates a private dataset at desktop width in the light theme and a space for her
 * organization on a phone in the dark theme; a second user and an anonymous visitor see what they may.
 */
let harness: WebHarness;

beforeAll(async () => {
  harness = await startWebHarness({ adminToken: SEED_ADMIN_TOKEN });
  await seedRepoPages(harness);
  const response = await fetch(`${harness.hub.url}/api/admin/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${SEED_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "bob", password: "correct horse battery" }),
  });
  expect(response.status).toBe(201);
});
afterAll(() => harness?.close());

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

async function ids(page: Page, list: string): Promise<string[]> {
  return page.getByRole("list", { name: list }).locator("a span.truncate").allTextContents();
}

async function apiIds(path: string): Promise<string[]> {
  const response = await fetch(`${harness.hub.url}${path}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as Array<{ id: string }>).map((row) => row.id);
}

/** No sideways scroll, popovers inside the viewport, no serious or critical axe finding. */
async function checkLayout(page: Page, colorScheme: ColorScheme) {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await popoversOutsideViewport(page)).toEqual([]);
  expect(await severeAxeFindings(page, colorScheme)).toEqual([]);
}

describe("new repository pages", () => {
  it("creates a private dataset with a license and lands on it (1366 px, light)", async () => {
    const page = await harness.newPage({ viewport: DESKTOP, colorScheme: "light" });
    const problems = watchPage(page, { expectedStatus: 200 });
    await signIn(page, SEEDED.user);
    await page.goto("/new-dataset");
    const form = page.getByRole("form", { name: "New dataset" });
    await form.waitFor();
    // The owner picker offers ada and the organization she may write to.
    await page.getByRole("combobox", { name: "Owner" }).click();
    expect(await page.getByRole("option").allTextContents()).toEqual([SEEDED.user, SEEDED.org]);
    await page.keyboard.press("Escape");
    await page.getByLabel("Dataset name").fill("rain-gauges");
    await page.getByRole("radio", { name: /^Private/ }).check();
    await page.getByRole("combobox", { name: "License" }).click();
    await page.getByRole("option", { name: "MIT", exact: true }).click();
    await checkLayout(page, "light");
    await page.getByRole("button", { name: "Create dataset" }).click();

    await page.waitForURL("**/datasets/ada/rain-gauges");
    await page.getByTestId("private-badge").waitFor();
    await expect.poll(() => page.getByTestId("license").textContent()).toBe("mit");
    await page.getByText("This dataset's README.md has metadata but no text yet.").waitFor();
    expect(await page.title()).toBe("Dataset ada/rain-gauges · Modelhub");
    const info = await page.request.get("/api/datasets/ada/rain-gauges");
    expect(await info.json()).toMatchObject({ private: true, cardData: { license: "mit" } });
    await checkLayout(page, "light");

    // Files and versions work for a dataset as for a model: the README the form committed is there.
    await page.getByRole("link", { name: "Files and versions" }).click();
    await page.waitForURL("**/datasets/ada/rain-gauges/tree/main");
    await page.getByTestId("file-tree").getByRole("link", { name: "README.md", exact: true }).waitFor();

    // Settings work for a dataset as for a model: made public, the header's badge goes.
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Make public" }).click();
    await page.getByRole("status").getByText("The repository is now public.").waitFor();
    await page.getByRole("link", { name: "Dataset card" }).click();
    await page.getByText("This dataset's README.md has metadata but no text yet.").waitFor();
    await page.getByTestId("private-badge").waitFor({ state: "detached" });
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("button", { name: "Make private" }).click();
    await page.getByRole("status").getByText("The repository is now private.").waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("creates a space for an organization with its SDK on a phone, keyboard only (390 px, dark)", async () => {
    const page = await harness.newPage({ viewport: PHONE, colorScheme: "dark" });
    const problems = watchPage(page, { expectedStatus: 200 });
    await signIn(page, SEEDED.user);
    await page.goto("/new-space");
    await page.getByRole("form", { name: "New space" }).waitFor();
    const owner = page.getByRole("combobox", { name: "Owner" });
    await owner.focus();
    await page.keyboard.press("Enter");
    await page.getByRole("option", { name: SEEDED.org }).waitFor();
    await expect.poll(() => focusedOption(page)).not.toBeNull();
    await page.keyboard.press("ArrowDown");
    await expect.poll(() => focusedOption(page)).toContain(SEEDED.org);
    await page.keyboard.press("Enter");
    await expect.poll(() => owner.textContent()).toContain(SEEDED.org);
    // Closing, the list hands focus back to its button a frame later: Tab from there, not from the list.
    await expect.poll(() => owner.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.keyboard.press("Tab");
    await page.keyboard.type("radar-viewer");
    // The SDK is required, as on the public hub: submitting without one stays and focuses the choice.
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value))
      .toBe("gradio");
    expect(page.url()).toContain("/new-space");
    await page.keyboard.press("ArrowDown");
    expect(await page.getByRole("radio", { name: /^Streamlit/ }).isChecked()).toBe(true);
    await checkLayout(page, "dark");
    await page.getByRole("radio", { name: /^Streamlit/ }).focus();
    await page.keyboard.press("Tab"); // the license select
    await page.keyboard.press("Tab"); // the button
    await page.keyboard.press("Enter");

    await page.waitForURL("**/spaces/acme/radar-viewer");
    await page.getByText("streamlit", { exact: true }).first().waitFor();
    await expect.poll(() => page.getByTestId("sdk").textContent()).toBe("streamlit");
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await checkLayout(page, "dark");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("the hub's answers for these pages", () => {
  it("serves the app with 200 for known repositories and owners, 404 otherwise, whatever Accept", async () => {
    const statuses: Record<string, number[]> = {};
    for (const path of [
      `/datasets/${SEEDED.dataset}`,
      `/datasets/${SEEDED.dataset}/tree/main`,
      `/spaces/${SEEDED.space}/discussions`,
      `/spaces/${SEEDED.space}`,
      `/spaces/${SEEDED.space}/app`,
      `/spaces/${SEEDED.space}/card`,
      "/datasets",
      "/new-space",
      `/${SEEDED.user}`,
      "/datasets/ada/no-such-set",
      `/spaces/${SEEDED.dataset}`,
      `/spaces/${SEEDED.dataset}/card`,
      `/datasets/${SEEDED.dataset}/card`,
      `/datasets/${SEEDED.dataset}/playground`,
      "/no-such-owner",
    ]) {
      statuses[path] = [];
      for (const accept of ["text/html", "application/json", "*/*"]) {
        const response = await fetch(`${harness.hub.url}${path}`, { headers: { accept } });
        expect(response.headers.get("content-type")).toContain("text/html");
        statuses[path].push(response.status);
      }
    }
    expect(statuses).toEqual({
      [`/datasets/${SEEDED.dataset}`]: [200, 200, 200],
      [`/datasets/${SEEDED.dataset}/tree/main`]: [200, 200, 200],
      [`/spaces/${SEEDED.space}/discussions`]: [200, 200, 200],
      [`/spaces/${SEEDED.space}`]: [200, 200, 200],
      [`/spaces/${SEEDED.space}/app`]: [200, 200, 200],
      [`/spaces/${SEEDED.space}/card`]: [200, 200, 200],
      "/datasets": [200, 200, 200],
      "/new-space": [200, 200, 200],
      [`/${SEEDED.user}`]: [200, 200, 200],
      "/datasets/ada/no-such-set": [404, 404, 404],
      [`/spaces/${SEEDED.dataset}`]: [404, 404, 404],
      [`/spaces/${SEEDED.dataset}/card`]: [404, 404, 404],
      [`/datasets/${SEEDED.dataset}/card`]: [404, 404, 404],
      [`/datasets/${SEEDED.dataset}/playground`]: [404, 404, 404],
      "/no-such-owner": [404, 404, 404],
    });
  });
});

describe("owners' pages and the lists", () => {
  it("lists an owner's repositories, private ones only to those who may see them", async () => {
    const ada = await harness.newPage({ viewport: DESKTOP });
    await signIn(ada, SEEDED.user);
    await ada.goto(`/${SEEDED.user}`);
    const datasets = ada.getByTestId("owner-datasets");
    await expect
      .poll(() => datasets.locator("a span.truncate").allTextContents())
      .toEqual(expect.arrayContaining(["ada/rain-gauges", SEEDED.dataset]));
    await datasets.getByText("Private").waitFor();
    await ada.getByRole("link", { name: SEEDED.orgFullname }).waitFor();

    const bob = await harness.newPage({ viewport: PHONE, colorScheme: "dark" });
    await signIn(bob, "bob");
    await bob.goto(`/${SEEDED.user}`);
    await expect
      .poll(() => bob.getByTestId("owner-datasets").locator("a span.truncate").allTextContents())
      .toEqual([SEEDED.dataset]);
    await checkLayout(bob, "dark");

    // The organization's page lists its spaces for anyone.
    const anonymous = await harness.newPage({ viewport: PHONE });
    await anonymous.goto(`/${SEEDED.org}`);
    await anonymous.waitForURL(`**/organizations/${SEEDED.org}`);
    await expect
      .poll(() => anonymous.getByTestId("owner-spaces").locator("a span.truncate").allTextContents())
      .toEqual(await apiIds(`/api/spaces?author=${SEEDED.org}&sort=lastModified&direction=-1`));
    expect((await apiIds(`/api/spaces?author=${SEEDED.org}`)).sort()).toEqual([
      SEEDED.space,
      "acme/radar-viewer",
    ]);
    await checkLayout(anonymous, "light");
    await Promise.all([ada, bob, anonymous].map((page) => page.context().close()));
  });

  it("searches and sorts datasets and spaces through the URL, as the API answers", async () => {
    const page = await harness.newPage({ viewport: DESKTOP });
    await signIn(page, SEEDED.user);
    await page.goto("/datasets");
    // ada sees her private dataset too.
    await expect.poll(() => ids(page, "Datasets")).toEqual(["ada/rain-gauges", SEEDED.dataset]);
    await page.getByRole("searchbox", { name: "Search datasets" }).fill("weather");
    await page.waitForURL((url) => url.searchParams.get("search") === "weather");
    await expect.poll(() => ids(page, "Datasets")).toEqual([SEEDED.dataset]);
    await page.getByText("1 dataset", { exact: true }).waitFor();

    await page.goto("/spaces");
    await page.getByRole("combobox", { name: "Sort" }).click();
    await page.getByRole("option", { name: "Name" }).click();
    await page.waitForURL((url) => url.searchParams.get("sort") === "name");
    const expected = await apiIds("/api/spaces?sort=id&direction=1");
    expect(expected).toEqual(["acme/forecast-demo", "acme/radar-viewer"]);
    await expect.poll(() => ids(page, "Spaces")).toEqual(expected);
    await page.reload();
    await expect.poll(() => ids(page, "Spaces")).toEqual(expected);

    // Anonymous visitors never see the private dataset.
    const anonymous = await harness.newPage({ viewport: PHONE, colorScheme: "dark" });
    await anonymous.goto("/datasets");
    await expect.poll(() => ids(anonymous, "Datasets")).toEqual([SEEDED.dataset]);
    const hidden = await anonymous.goto("/datasets/ada/rain-gauges");
    expect(hidden?.status()).toBe(404);
    await anonymous.getByRole("heading", { name: "Page not found" }).waitFor();
    await Promise.all([page, anonymous].map((each) => each.context().close()));
  });
});

describe("the dataset and space lists' card filters", () => {
  it("filters datasets by language and license and spaces by SDK, in the URL, as the API answers", async () => {
    const page = await harness.newPage({ viewport: PHONE, colorScheme: "dark" });
    const problems = watchPage(page, { expectedStatus: 200 });
    const choose = async (combobox: string, option: string) => {
      await page.getByRole("combobox", { name: combobox }).click();
      await page.getByRole("option", { name: option, exact: true }).click();
    };
    await page.goto("/datasets");
    await page.locator("main ul a").first().waitFor();
    // Every main link is on screen at 390 px (the nav once scrolled, hiding Spaces and Widget).
    const links = page.getByRole("navigation", { name: "Main" }).getByRole("link");
    expect(await links.count()).toBe(4);
    for (const box of await Promise.all((await links.all()).map((link) => link.boundingBox()))) {
      expect(box && box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box)).toBe(true);
    }
    await choose("Language", "French");
    await page.waitForURL((url) => url.searchParams.get("language") === "fr");
    const french = await apiIds("/api/datasets?language=fr");
    expect(french).toEqual([SEEDED.dataset]);
    await expect.poll(() => ids(page, "Datasets")).toEqual(french);
    // The row shows what the card says.
    const tags = page.getByRole("list", { name: "Datasets" }).getByRole("list", { name: "Tags" });
    expect(await tags.getByRole("listitem").allTextContents()).toEqual([
      "cc-by-4.0",
      "en",
      "fr",
      "time-series-forecasting",
    ]);
    await choose("License", "MIT");
    await page.waitForURL((url) => url.searchParams.get("license") === "mit");
    expect(await apiIds("/api/datasets?language=fr&license=mit")).toEqual([]);
    await page.getByText("No dataset matches these filters.").waitFor();

    await page.goto("/spaces?sdk=gradio");
    const gradio = await apiIds("/api/spaces?filter=gradio");
    expect(gradio).toEqual([SEEDED.space]);
    await expect.poll(() => ids(page, "Spaces")).toEqual(gradio);
    await choose("SDK", "Streamlit");
    await page.waitForURL((url) => url.searchParams.get("sdk") === "streamlit");
    await expect.poll(() => ids(page, "Spaces")).toEqual(["acme/radar-viewer"]);
    await checkLayout(page, "dark");
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe("the models list's file-derived filters", () => {
  it("keeps a filter chosen while the list has not yet rendered the one chosen before", async () => {
    const page = await harness.newPage({ viewport: DESKTOP });
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/models");
    await page.locator("main ul a").first().waitFor();
    // A reader on a slow phone picks a second filter before the list has rendered the first: here the second
    // is picked once the first is in the address bar but before the page could render (no task in between).
    // Both are typed on the closed selects, which picks the first option starting with that letter.
    await page.evaluate(async () => {
      const type = (name: string, key: string) =>
        document
          .querySelector(`[role=combobox][aria-label="${name}"]`)
          ?.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
      type("Parameters", "3");
      for (let turn = 0; turn < 10_000 && !location.search.includes("params="); turn++)
        await Promise.resolve();
      type("Runs in app", "O");
    });
    await page.waitForURL((url) => url.searchParams.has("app"));
    const search = new URL(page.url()).searchParams;
    expect([search.get("params"), search.get("app")]).toEqual(["3b-8b", "ollama"]);
    expect(problems).toEqual([]);
  });

  it("filters by license, language, parameter size and app, in the URL, as the API answers", async () => {
    const page = await harness.newPage({ viewport: DESKTOP });
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/models");
    const shown = () => page.locator("main ul a span.truncate").allTextContents();
    await page.locator("main ul a").first().waitFor();

    expect(await popoversOutsideViewport(page)).toEqual([]);
    const choose = async (combobox: string, option: string) => {
      await page.getByRole("combobox", { name: combobox }).click();
      await page.getByRole("option", { name: option, exact: true }).click();
    };
    await choose("License", "Apache 2.0");
    await page.waitForURL((url) => url.searchParams.get("license") === "apache-2.0");
    const apache = await apiIds("/api/models?license=apache-2.0&sort=trendingScore&direction=-1&limit=30");
    expect(apache.length).toBeGreaterThan(0);
    await expect.poll(shown).toEqual(apache);

    await choose("License", "Any license");
    await choose("Parameters", "3B to 8B");
    await choose("Runs in app", "Ollama");
    await page.waitForURL(
      (url) => url.searchParams.get("params") === "3b-8b" && url.searchParams.get("app") === "ollama",
    );
    const midSized = await apiIds(
      "/api/models?num_parameters=min%3A3B%2Cmax%3A8B&apps=ollama&sort=trendingScore&direction=-1&limit=30",
    );
    expect(midSized.length).toBeGreaterThan(0);
    await expect.poll(shown).toEqual(midSized);

    await choose("Language", "French");
    await page.waitForURL((url) => url.searchParams.get("language") === "fr");
    const french = await apiIds(
      "/api/models?language=fr&num_parameters=min%3A3B%2Cmax%3A8B&apps=ollama&sort=trendingScore&direction=-1&limit=30",
    );
    await expect.poll(shown).toEqual(french);
    await page.reload();
    await expect.poll(shown).toEqual(french);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

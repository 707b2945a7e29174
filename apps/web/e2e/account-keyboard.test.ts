import { AxeBuilder } from "@axe-core/playwright";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ColorScheme, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, watchPage } from "./page-checks.js";

/**
 * The account and administration pages with the keyboard only (Tab, arrows, Enter, typing; no clicks):
 * sign up, settings, a token made and revoked, an organization, sign out and in; a site admin reaches the
 * administration from the user menu, changes the site settings and disables a user. What the pages say back
 * is announced (status / alert roles). Every signed-in page is then checked at 1366 px and 390 px in both
 * themes: no sideways scroll, no console error, no serious or critical axe finding (sign-in and sign-up are
 * in every-page.test.ts). Others get the not-found page.
 */
const ADMIN_TOKEN = "keyboard-test-operator-token-0123456789";
const PASSWORD = "correct horse battery staple";
const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
];

let harness: WebHarness;

beforeAll(async () => {
  harness = await startWebHarness({ signupPolicy: "open", adminToken: ADMIN_TOKEN });
  for (const [name, isAdmin] of [
    ["root", true],
    ["bob", false],
  ] as const) {
    const response = await fetch(`${harness.hub.url}/api/admin/users`, {
      method: "POST",
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name, password: PASSWORD, isAdmin }),
    });
    expect(response.status).toBe(201);
  }
});
afterAll(() => harness?.close());

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses Tab until `target` has the focus: it is reachable by keyboard, in the page's order. */
async function tabTo(page: Page, target: Locator, limit = 60) {
  await target.waitFor();
  for (let presses = 0; presses <= limit; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${target}`);
}

/** Focuses a field by Tab and replaces its text by typing. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(text);
}

async function press(page: Page, target: Locator, key = "Enter") {
  await tabTo(page, target);
  await page.keyboard.press(key);
}

/** Follows a tab of the settings or administration pages by keyboard, and waits for its page. */
async function openTab(page: Page, nav: "Settings" | "Administration", tab: string, url: string) {
  await press(page, page.getByRole("navigation", { name: nav }).getByRole("link", { name: tab }));
  await page.waitForURL(url);
}

/** Opens the header's account menu and follows one of its entries, by keyboard. */
async function fromAccountMenu(page: Page, name: string, entry: string) {
  await press(
    page,
    page.locator("details[data-menu] > summary").filter({ hasText: `Account menu of ${name}` }),
  );
  await press(
    page,
    page
      .getByRole("navigation", { name: "Account" })
      .getByRole(entry === "Sign out" ? "button" : "link", { name: entry }),
  );
}

describe("the account pages by keyboard", () => {
  it("signs up, edits the profile, makes and revokes a token, makes an organization, signs out and in", async () => {
    const page = await harness.newPage({ viewport: VIEWPORTS[1], colorScheme: "dark" });
    const problems = watchPage(page, { expectedStatus: 200 });
    await page.goto("/join");
    const signUp = page.getByRole("form", { name: "Sign up" });
    await typeInto(page, signUp.getByLabel("User name"), "kim");
    await typeInto(page, signUp.getByLabel("Email"), "kim@example.com");
    await typeInto(page, signUp.getByLabel("Password"), PASSWORD);
    await press(page, signUp.getByRole("button", { name: "Create account" }));
    await page.waitForURL("**/models");

    await fromAccountMenu(page, "kim", "Profile");
    await page.waitForURL("**/settings/profile");
    await typeInto(page, page.getByLabel("Full name"), "Kim Keyboard");
    await press(page, page.getByRole("button", { name: "Save profile" }));
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("Profile saved.");

    await openTab(page, "Settings", "Access tokens", "**/settings/tokens");
    const newToken = page.getByRole("form", { name: "New access token" });
    await typeInto(page, newToken.getByLabel("Token name"), "keyboard");
    // Arrow keys move through the token types: read -> write.
    await tabTo(page, newToken.getByRole("radio", { name: /^Read/ }));
    await page.keyboard.press("ArrowDown");
    expect(await newToken.getByRole("radio", { name: /^Write/ }).isChecked()).toBe(true);
    await press(page, newToken.getByRole("button", { name: "Create token" }));
    const reveal = page.getByRole("textbox", { name: "New access token" });
    await expect.poll(() => reveal.inputValue()).toMatch(/^hf_/);
    await press(page, page.getByRole("button", { name: "Revoke keyboard" }));
    await expect.poll(() => page.getByRole("button", { name: "Revoke keyboard" }).count()).toBe(0);

    await openTab(page, "Settings", "Organizations", "**/settings/organizations");
    const newOrg = page.getByRole("form", { name: "New organization" });
    await typeInto(page, newOrg.getByLabel("Organization name"), "kims-lab");
    await press(page, newOrg.getByRole("button", { name: "Create organization" }));
    // Made: the browser goes on to the organization's page.
    await page.waitForURL("**/organizations/kims-lab");
    await page.getByRole("heading", { level: 1 }).getByText("kims-lab").waitFor();
    expect(problems).toEqual([]);

    await fromAccountMenu(page, "kim", "Sign out");
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    await press(page, page.getByRole("link", { name: "Sign in" }));
    const signIn = page.getByRole("form", { name: "Sign in" });
    // The sign-in page puts the focus in its first field.
    await expect.poll(() => isFocused(signIn.getByLabel("User name or email"))).toBe(true);
    await page.keyboard.type("kim");
    await page.keyboard.press("Tab");
    await page.keyboard.type("a wrong password");
    await page.keyboard.press("Enter");
    await expect.poll(() => signIn.getByRole("alert").textContent()).toMatch(/invalid|incorrect|wrong/i);
    await typeInto(page, signIn.getByLabel("Password"), PASSWORD);
    await page.keyboard.press("Enter");
    await page.locator("details[data-menu] > summary").filter({ hasText: "Account menu of kim" }).waitFor();
    // No administration for a user who is not a site admin: not in the menu, not found at its address.
    await press(
      page,
      page.locator("details[data-menu] > summary").filter({ hasText: "Account menu of kim" }),
    );
    expect(await page.getByRole("link", { name: "Site administration" }).count()).toBe(0);
    const admin = await page.goto("/admin/users");
    expect(admin?.status()).toBe(404);
    await page.getByRole("heading", { level: 1 }).waitFor();
    expect(await page.getByRole("heading", { name: "Site administration" }).count()).toBe(0);
    await page.context().close();
  });

  it("takes a site admin from the user menu to the settings and the users, by keyboard", async () => {
    const page = await harness.newPage({ viewport: VIEWPORTS[0], colorScheme: "light" });
    await page.goto("/login");
    await expect.poll(() => isFocused(page.getByLabel("User name or email"))).toBe(true);
    await page.keyboard.type("root");
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await fromAccountMenu(page, "root", "Site administration");
    await page.waitForURL("**/admin/settings");

    const form = page.getByRole("form", { name: "Site settings" });
    await typeInto(page, form.getByLabel("Site name"), "Acme Models");
    await typeInto(page, form.getByLabel("Notice"), "Maintenance on Sunday.");
    // From "as configured" to "Open" with the arrow keys.
    await tabTo(page, form.getByRole("radio", { name: /As configured/ }));
    await page.keyboard.press("ArrowDown");
    await press(page, form.getByRole("button", { name: "Save settings" }));
    await expect.poll(() => form.getByRole("status").textContent()).toContain("Sign-up is now open.");
    // The header shows the new name and the notice at once, and so does every page loaded afterwards.
    await page.getByRole("note").getByText("Maintenance on Sunday.").waitFor();
    await page.getByRole("link", { name: "Acme Models home" }).waitFor();
    await page.goto("/models");
    await page.getByRole("note").getByText("Maintenance on Sunday.").waitFor();
    await page.getByRole("link", { name: "Acme Models home" }).waitFor();

    await fromAccountMenu(page, "root", "Site administration");
    await page.waitForURL("**/admin/settings");
    await openTab(page, "Administration", "Users", "**/admin/users");
    await press(page, page.getByRole("button", { name: "Disable bob" }));
    await expect.poll(() => page.getByRole("status").first().textContent()).toContain("bob is disabled.");
    expect((await harness.hub.store.accounts.users.byName("bob"))?.disabled).toBe(true);
    await press(page, page.getByRole("button", { name: "Enable bob" }));
    await expect
      .poll(async () => (await harness.hub.store.accounts.users.byName("bob"))?.disabled)
      .toBe(false);

    // Creating a user confirms; creating the same name again shows the hub's refusal.
    const createUser = page.getByRole("form", { name: "Create a user" });
    for (const expected of [
      { role: "status", text: "Created carol." },
      { role: "alert", text: "already taken" },
    ] as const) {
      await typeInto(page, createUser.getByLabel("User name"), "carol");
      await press(page, createUser.getByRole("button", { name: "Create user" }));
      await expect
        .poll(() => createUser.locator("..").getByRole(expected.role).textContent())
        .toContain(expected.text);
    }
    expect(await harness.hub.store.accounts.users.byName("carol")).toBeTruthy();

    await openTab(page, "Administration", "Organizations", "**/admin/organizations");
    const createOrg = page.getByRole("form", { name: "Create an organization" });
    await typeInto(page, createOrg.getByLabel("Organization name"), "keyboard-lab");
    await typeInto(page, createOrg.getByLabel("Owner (user name)"), "bob");
    await press(page, createOrg.getByRole("button", { name: "Create organization" }));
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("Created keyboard-lab.");
    await page.context().close();
  });
});

const ACCOUNT_PAGES = [
  { path: "/settings/profile", ready: (page: Page) => page.getByLabel("Full name").waitFor() },
  { path: "/settings/tokens", ready: (page: Page) => page.getByLabel("Token name").waitFor() },
  { path: "/settings/organizations", ready: (page: Page) => page.getByLabel("Organization name").waitFor() },
  { path: "/settings/storage", ready: (page: Page) => page.getByText("Private repositories").waitFor() },
  { path: "/admin/settings", ready: (page: Page) => page.getByLabel("Site name").waitFor() },
  {
    path: "/admin/users",
    ready: (page: Page) => page.getByRole("button", { name: "Disable bob" }).waitFor(),
  },
  {
    path: "/admin/organizations",
    ready: (page: Page) => page.getByRole("link", { name: "kims-lab" }).waitFor(),
  },
  { path: "/admin/usage", ready: (page: Page) => page.getByRole("table").waitFor() },
  { path: "/admin/storage", ready: (page: Page) => page.getByRole("table").waitFor() },
  {
    path: "/admin/providers",
    ready: (page: Page) => page.getByText("No own providers yet.").waitFor(),
  },
];

describe.each(VIEWPORTS)("account and administration pages at $width px", (viewport) => {
  it.each<ColorScheme>(["light", "dark"])(
    "in the %s theme: no sideways scroll, no axe finding",
    async (colorScheme) => {
      const page = await harness.newPage({ viewport, colorScheme });
      const problems = watchPage(page, { expectedStatus: 200 });
      for (const path of ["/login", "/join"]) {
        await page.goto(path);
        await page.getByRole("form").first().waitFor();
        await expectAccessible(page, colorScheme, path);
      }
      // Signed in as the site admin (through the API, in this browser: the same cookie as the form's).
      const signedIn = await page.request.post("/api/auth/signin", {
        data: { name: "root", password: PASSWORD },
      });
      expect(signedIn.status()).toBe(200);
      for (const { path, ready } of ACCOUNT_PAGES) {
        await page.goto(path);
        await ready(page);
        await expectAccessible(page, colorScheme, path);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    },
  );
});

/** No sideways scroll; no serious or critical axe finding (every rule in light, the colour ones in dark). */
async function expectAccessible(page: Page, colorScheme: ColorScheme, path: string) {
  expect(await horizontalOverflow(page), path).toBeLessThanOrEqual(0);
  const builder = new AxeBuilder({ page });
  const results = await (colorScheme === "light"
    ? builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    : builder.withRules(["color-contrast", "link-in-text-block"])
  ).analyze();
  const severe = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${path} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  expect(severe).toEqual([]);
}

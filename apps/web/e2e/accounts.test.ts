import { whoAmI } from "@huggingface/hub";
import { InferenceClient } from "@modelhub/inference";
import { type ProviderSim, startProviderSim } from "@modelhub/provider-sim";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantGatedModel, startWebHarness, type WebHarness } from "./harness.js";
import { horizontalOverflow, severeAxeFindings, watchPage } from "./page-checks.js";
import { CHAT_MODEL } from "./pages.js";

/**
 * The account pages against a real hub (open sign-up) and provider-sim behind its router: sign up, sign in
 * and out, tokens made on the page used by real clients, an organization invite accepted by a second user,
 * and the "create a token for me" flow of the snippets panel and the playground. Each page is checked at
 * 390 px or 1366 px: no sideways scroll and no serious or critical axe finding.
 */
const PROVIDER_KEY = "sim-together-key-accounts";
const PASSWORD = "correct horse battery staple";
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };

let harness: WebHarness;
let sim: ProviderSim;
let ada: Page;
/** Console errors and failed requests of the pages, checked at the end. */
const watched: string[][] = [];

beforeAll(async () => {
  sim = await startProviderSim({ providerKeys: { together: [PROVIDER_KEY] } });
  harness = await startWebHarness({
    signupPolicy: "open",
    providerKeys: { together: PROVIDER_KEY },
    providerBaseUrls: { together: sim.providerUrl("together") },
  });
  ada = await harness.newPage({ viewport: PHONE });
});
afterAll(async () => {
  await harness?.close();
  await sim?.close();
});

/** No sideways scroll, no serious or critical axe finding. */
async function expectAccessible(page: Page) {
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  expect(await severeAxeFindings(page)).toEqual([]);
}

async function signUp(page: Page, name: string) {
  await page.getByRole("form", { name: "Sign up" }).waitFor();
  await page.getByLabel("User name").fill(name);
  await page.getByLabel("Full name").fill(`${name} Lovelace`);
  await page.getByLabel("Email").fill(`${name}@example.com`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
}

/** The token works: a chat call through the hub's router, as a user would make it with @huggingface/inference. */
async function expectTokenChats(token: string) {
  // The chat model is gated: ada's own grant lets her tokens run it.
  await grantGatedModel(harness.hub, "ada-web", CHAT_MODEL);
  const client = new InferenceClient(token, {
    hubUrl: harness.hub.url,
    routerUrl: `${harness.hub.url}/router`,
  });
  const answer = await client.chatCompletion({
    model: CHAT_MODEL,
    provider: "together",
    messages: [{ role: "user", content: "Hello" }],
    max_tokens: 16,
  });
  expect(answer.choices[0]?.message.content).toEqual(expect.any(String));
}

const accountMenu = (page: Page, name: string) =>
  page.locator("details[data-menu] > summary").filter({ hasText: `Account menu of ${name}` });

describe("signing up, out and in", () => {
  it("signs up on a phone, signs out from the header menu, and signs in on a desktop", async () => {
    await ada.goto("/join");
    await ada.getByRole("form", { name: "Sign up" }).waitFor();
    await expectAccessible(ada);
    await signUp(ada, "ada-web");
    await ada.waitForURL("**/models");
    await accountMenu(ada, "ada-web").click();
    await expectAccessible(ada);
    await ada.getByRole("button", { name: "Sign out" }).click();
    await ada.getByRole("link", { name: "Sign in" }).waitFor();

    await ada.setViewportSize(DESKTOP);
    await ada.goto("/login?next=%2Fsettings%2Fprofile");
    await ada.getByLabel("User name or email").fill("ada-web");
    await ada.getByLabel("Password").fill("not the password");
    await ada.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => ada.getByRole("alert").textContent()).toBe("Invalid username or password.");
    await expectAccessible(ada);
    // From here on, nothing on this page may fail (the refused sign-in above answered 401 on purpose).
    watched.push(watchPage(ada, { expectedStatus: 200 }));
    await ada.getByLabel("Password").fill(PASSWORD);
    await ada.getByRole("button", { name: "Sign in" }).click();
    await ada.waitForURL("**/settings/profile");
    await expect.poll(() => ada.getByLabel("Email").inputValue()).toBe("ada-web@example.com");
    await expectAccessible(ada);
  });
});

describe("access tokens", () => {
  it("creates a write token shown once, which @huggingface/hub uses, and revokes it", async () => {
    await ada.goto("/settings/tokens");
    await ada.getByLabel("Token name").fill("laptop");
    await ada.getByRole("radio", { name: /^Write/ }).check();
    await ada.getByRole("button", { name: "Create token" }).click();
    const token = await ada.getByTestId("new-token").inputValue();
    expect(token).toMatch(/^hf_\w{34}$/);
    await expectAccessible(ada);

    const me = await whoAmI({ accessToken: token, hubUrl: harness.hub.url });
    expect(me).toMatchObject({ name: "ada-web", type: "user" });
    expect(
      (me as { auth: { accessToken?: { displayName: string; role: string } } }).auth.accessToken,
    ).toMatchObject({ displayName: "laptop", role: "write" });

    // A reload forgets it: only the hint is listed.
    await ada.reload();
    await ada.getByRole("list", { name: "Access tokens" }).getByText("laptop").waitFor();
    expect(await ada.content()).not.toContain(token);
    await ada.getByRole("button", { name: "Revoke laptop" }).click();
    await expect.poll(() => ada.getByRole("button", { name: "Revoke laptop" }).count()).toBe(0);
    await expect(whoAmI({ accessToken: token, hubUrl: harness.hub.url })).rejects.toThrow();
  });

  it("creates a fine-grained inference token on a phone", async () => {
    await ada.setViewportSize(PHONE);
    await ada.goto("/settings/tokens");
    await ada.getByLabel("Token name").fill("inference only");
    await ada.getByRole("radio", { name: /^Fine-grained/ }).check();
    await ada.getByRole("button", { name: "Add a repository or namespace" }).click();
    await ada.getByLabel("Repository or namespace").fill(CHAT_MODEL);
    await expectAccessible(ada);
    await ada.getByRole("button", { name: "Create token" }).click();
    const token = await ada.getByTestId("new-token").inputValue();
    const list = ada.getByRole("list", { name: "Access tokens" });
    await list.getByText(`Fine-grained: inference, read on ${CHAT_MODEL}`).waitFor();
    await expectTokenChats(token);
  });
});

describe("organizations", () => {
  it("creates an organization, invites a second user who joins, changes their role, and they leave", async () => {
    await ada.setViewportSize(DESKTOP);
    await ada.goto("/settings/organizations");
    await ada.getByLabel("Organization name").fill("web-team");
    await ada.getByLabel("Full name").fill("The Web Team");
    await ada.getByRole("button", { name: "Create organization" }).click();
    await ada.waitForURL("**/organizations/web-team");
    await ada.getByRole("heading", { name: "The Web Team" }).waitFor();
    await ada.getByLabel("Role", { exact: true }).selectOption("write");
    await ada.getByRole("button", { name: "Create invite link" }).click();
    const link = await ada.getByTestId("new-secret").inputValue();
    expect(link).toMatch(new RegExp(`^${harness.hub.url}/organizations/invites/[\\w-]+$`));
    await expectAccessible(ada);

    // A second person, on a phone, with no account yet.
    const bob = await harness.newPage({ viewport: PHONE });
    watched.push(watchPage(bob, { expectedStatus: 200 }));
    await bob.goto(link);
    await bob.getByText("You are invited to join").waitFor();
    await expectAccessible(bob);
    await bob.getByRole("link", { name: "create an account" }).click();
    await signUp(bob, "bob-web");
    await bob.getByRole("button", { name: "Join web-team as bob-web" }).click();
    await bob.waitForURL("**/organizations/web-team");
    await bob.getByText("your role: write").waitFor();
    await expectAccessible(bob);

    // The admin sees the new member and makes them a reader.
    await ada.reload();
    const role = ada.getByLabel("Role of bob-web");
    await expect.poll(() => role.inputValue()).toBe("write");
    await role.selectOption("read");
    await expect
      .poll(async () => {
        const org = await fetch(`${harness.hub.url}/api/organizations/web-team`).then((r) => r.json());
        return (org as { members: Array<{ name: string; role: string }> }).members.find(
          (m) => m.name === "bob-web",
        )?.role;
      })
      .toBe("read");

    // The link was single use.
    const again = await harness.newPage();
    await again.goto(link);
    await again
      .getByRole("alert")
      .getByText(/invalid, used or expired/)
      .waitFor();
    await again.context().close();

    await bob.goto("/settings/organizations");
    await bob.getByRole("button", { name: "Leave web-team" }).click();
    await bob.getByText("You are not a member of any organization yet.").waitFor();
    await expectAccessible(bob);
    await bob.context().close();
  });
});

describe("a token for the signed-in user in the snippets panel, the session in the playground", () => {
  it("writes a new token into the snippet, and the token runs the call", async () => {
    await ada.goto(`/${CHAT_MODEL}/inference?provider=together`);
    await ada.getByRole("button", { name: "Create a token for me" }).click();
    await ada.getByText(/Made “snippet: /).waitFor();
    const snippet = await ada.getByTestId("inference-snippet").textContent();
    const token = /hf_\w{34}/.exec(snippet ?? "")?.[0];
    expect(token).toBeDefined();
    await expectTokenChats(token!);
    await expectAccessible(ada);
  });

  it("lets the signed-in user chat with their session, and offers a reader who is not signed in to sign in", async () => {
    await ada.goto(`/${CHAT_MODEL}/playground`);
    await ada.getByTestId("playground-session").getByText("your calls go with your session").waitFor();
    expect(await ada.getByRole("button", { name: "Create a token for me" }).count()).toBe(0);

    const reader = await harness.newPage({ viewport: PHONE });
    await reader.goto(`/${CHAT_MODEL}/playground`);
    await reader.getByText("and this page makes one for you").waitFor();
    await reader.getByRole("link", { name: "Sign in" }).first().waitFor();
    await reader.context().close();
    expect(watched.flat()).toEqual([]);
  });
});

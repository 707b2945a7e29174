import type { StartHubOptions } from "@modelhub/hub";
import type { Page } from "playwright-core";
import { startWebHarness, type WebHarness } from "./harness.js";
import { watchPage } from "./page-checks.js";

/** Signs up a user through the hub's API (the hub runs with `signupPolicy: "open"`). */
export async function signUp(
  harness: WebHarness,
  name: string,
  password = "correct horse battery",
): Promise<void> {
  const response = await fetch(`${harness.hub.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password }),
  });
  if (!response.ok) throw new Error(`signup ${name}: ${response.status} ${await response.text()}`);
}

/** Signs the page's browser context in (the session cookie lands in the context); returns the CSRF token. */
export async function signIn(page: Page, name: string, password = "correct horse battery"): Promise<string> {
  const response = await page.request.post("/api/auth/signin", { data: { name, password } });
  if (!response.ok()) throw new Error(`signin ${name}: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

/**
 * A new page of its own context at `view`, signed in as `name`, with the console errors and failed requests
 * it meets from then on (page-checks.ts watchPage).
 */
export async function signedInPage(
  harness: WebHarness,
  name: string,
  view: Parameters<WebHarness["newPage"]>[0],
  password = "correct horse battery",
): Promise<{ page: Page; problems: string[] }> {
  const page = await harness.newPage(view);
  const problems = watchPage(page, { expectedStatus: 200 });
  await signIn(page, name, password);
  return { page, problems };
}

/** Creates a model repository `owner/name` as the signed-in user of `page`. */
export async function createRepo(
  page: Page,
  csrfToken: string,
  owner: string,
  name: string,
  extra: Record<string, unknown> = {},
) {
  const response = await page.request.post("/api/repos/create", {
    data: { name, organization: owner, type: "model", ...extra },
    headers: { "X-CSRF-Token": csrfToken },
  });
  if (!response.ok()) throw new Error(`create ${name}: ${response.status()} ${await response.text()}`);
}

/**
 * A hub open to sign-up where `owner` is signed in on a desktop-sized page and owns the model repositories
 * `repos`: the start of the tests that work in one user's repositories.
 */
export async function hubWithOwner(
  owner: string,
  repos: string[],
  hubOptions: Partial<StartHubOptions> = {},
) {
  const harness = await startWebHarness({ ...hubOptions, signupPolicy: "open" });
  await signUp(harness, owner);
  const page = await harness.newPage({ viewport: { width: 1366, height: 900 } });
  const csrf = await signIn(page, owner);
  for (const repo of repos) await createRepo(page, csrf, owner, repo);
  return { harness, page, csrf };
}

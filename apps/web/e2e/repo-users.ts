import type { Page } from "playwright-core";
import type { WebHarness } from "./harness.js";

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

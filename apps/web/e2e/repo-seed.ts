import type { WebHarness } from "./harness.js";

/** The admin token the harnesses that seed accounts and repositories start their hub with. */
export const SEED_ADMIN_TOKEN = "e2e-seed-admin-token-0123456789";

/** What seedRepoPages made: a user, an organization, and a dataset and a space with cards. */
export const SEEDED = {
  user: "ada",
  org: "acme",
  orgFullname: "Acme Weather",
  dataset: "ada/weather-obs",
  space: "acme/forecast-demo",
} as const;

async function call(harness: WebHarness, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${harness.hub.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json() as Promise<Record<string, unknown>>;
}

async function commitReadme(harness: WebHarness, token: string, type: string, id: string, readme: string) {
  const lines = [
    { key: "header", value: { summary: "Add the card" } },
    {
      key: "file",
      value: { path: "README.md", content: Buffer.from(readme).toString("base64"), encoding: "base64" },
    },
  ];
  const response = await fetch(`${harness.hub.url}/api/${type}s/${id}/commit/main`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
    body: lines.map((line) => JSON.stringify(line)).join("\n"),
  });
  if (!response.ok) throw new Error(`commit ${id}: ${response.status} ${await response.text()}`);
}

/**
 * Through the hub's admin and repository APIs (the hub must run with SEED_ADMIN_TOKEN): user `ada`
 * (password "correct horse battery") in organization `acme`, a public dataset of ada's and a public space
 * of acme's, each with a card whose front matter the sidebar shows.
 */
export async function seedRepoPages(harness: WebHarness): Promise<{ token: string }> {
  await call(harness, SEED_ADMIN_TOKEN, "POST", "/api/admin/users", {
    name: SEEDED.user,
    fullname: "Ada Lovelace",
    password: "correct horse battery",
  });
  await call(harness, SEED_ADMIN_TOKEN, "POST", "/api/admin/orgs", {
    name: SEEDED.org,
    fullname: SEEDED.orgFullname,
    owner: SEEDED.user,
  });
  const { token } = (await call(harness, SEED_ADMIN_TOKEN, "POST", "/api/admin/tokens", {
    user: SEEDED.user,
    name: "seed",
    role: "write",
  })) as { token: string };
  await call(harness, token, "POST", "/api/repos/create", { type: "dataset", name: SEEDED.dataset });
  await commitReadme(
    harness,
    token,
    "dataset",
    SEEDED.dataset,
    "---\nlicense: cc-by-4.0\nlanguage: [en, fr]\ntask_categories: [time-series-forecasting]\nsize_categories: [1K<n<10K]\n---\n# Weather observations\n\nHourly readings from 12 stations.\n",
  );
  await call(harness, token, "POST", "/api/repos/create", {
    type: "space",
    name: SEEDED.space,
    sdk: "gradio",
  });
  await commitReadme(
    harness,
    token,
    "space",
    SEEDED.space,
    `---\ntitle: Forecast demo\nsdk: gradio\nlicense: mit\nmodels: [meta-llama/Llama-3.1-8B-Instruct]\ndatasets: [${SEEDED.dataset}]\n---\n# Forecast demo\n\nAsk for tomorrow's weather.\n`,
  );
  return { token };
}

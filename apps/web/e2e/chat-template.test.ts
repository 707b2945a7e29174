import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebHarness, type WebHarness } from "./harness.js";
import { CHAT_MODEL, PAGE_READY } from "./pages.js";

/** The chat template view renders in a worker: a hostile template never freezes the page. */

const ADMIN_TOKEN = "e2e-admin-token-0123456789";
const HOSTILE_MODEL = "acme/hostile-template";
/** Exponential macro fan-out: the engine's step budget ends it, in the worker, not on the page. */
const HOSTILE_TEMPLATE =
  "{% macro r(n) %}{% for i in range(9) %}{% if n<12 %}{{ r(n+1) }}{% endif %}{% endfor %}{% endmacro %}{{ r(0) }}";

/** A `\N{...}` escape needs the Unicode name table, a chunk the worker loads only for such a template. */
const NAMED_CHARACTER_MODEL = "acme/named-character-template";
const NAMED_CHARACTER_TEMPLATE = "{% for m in messages %}{{ '\\N{BULLET} ' + m.content }}{% endfor %}";

let harness: WebHarness;
async function addChatModel(id: string, chatTemplate: string): Promise<void> {
  const response = await fetch(`${harness.hub.url}/api/admin/models`, {
    method: "POST",
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      id,
      tags: ["text-generation", "conversational"],
      pipeline_tag: "text-generation",
      config: { tokenizer_config: { chat_template: chatTemplate } },
    }),
  });
  expect(response.status).toBeLessThan(300);
}
beforeAll(async () => {
  harness = await startWebHarness({ adminToken: ADMIN_TOKEN });
  await addChatModel(HOSTILE_MODEL, HOSTILE_TEMPLATE);
  await addChatModel(NAMED_CHARACTER_MODEL, NAMED_CHARACTER_TEMPLATE);
});
afterAll(() => harness?.close());

describe("chat template view", () => {
  it("renders a model's template off the main thread", async () => {
    const page = await harness.newPage();
    const workers: string[] = [];
    page.on("worker", (worker) => workers.push(worker.url()));
    await page.goto(`/${CHAT_MODEL}/chat-template`);
    await PAGE_READY.chatTemplate(page);
    await expect
      .poll(() => page.getByTestId("rendered-prompt").textContent())
      .toContain("<|start_header_id|>user");
    expect(workers.some((url) => /render-worker/.test(url))).toBe(true);
  });

  it("renders a template's \\N{...} escape with the name table loaded on demand", async () => {
    const page = await harness.newPage();
    await page.goto(`/${NAMED_CHARACTER_MODEL}/chat-template`);
    await PAGE_READY.chatTemplate(page);
    await expect.poll(() => page.getByTestId("rendered-prompt").textContent()).toMatch(/^\u2022 /);
  });

  it("shows the engine's limit error for a hostile template while the page stays responsive", async () => {
    const page = await harness.newPage();
    await page.goto(`/${HOSTILE_MODEL}/chat-template`);
    // The page answers at once while the worker renders.
    const started = Date.now();
    expect(await page.evaluate(() => 1 + 1)).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
    await expect
      .poll(() => page.getByRole("alert").textContent(), { timeout: 15_000 })
      .toMatch(/steps of work|loop iterations|stopped after/);
  });
});

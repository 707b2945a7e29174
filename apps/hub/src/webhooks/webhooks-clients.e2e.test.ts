import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { accountsService } from "../accounts/accounts-service.js";

const SUITE = fileURLToPath(new URL("./__fixtures__/hf_webhooks_suite.py", import.meta.url));
/** A public address (TEST-NET-3) that needs no DNS: never posted to here (no delivery workers). */
const PUBLIC_TARGET = "http://203.0.113.7/webhook";

/** A hub as installed: WEBHOOK_ALLOW_PRIVATE off. */
const hub = useTestHub();
let alice: string;

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  await accountsService(hub.store.accounts).createOrg({ name: "acme", fullname: "Acme", owner: "alice" });
  const created = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "model", name: "watched" }),
  });
  expect(created.status).toBe(200);
});

const create = (url: string) =>
  fetch(`${hub.url}/api/settings/webhooks`, {
    method: "POST",
    headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/json" },
    body: JSON.stringify({ watched: [{ type: "user", name: "alice" }], url }),
  });

describe("webhooks through huggingface_hub", () => {
  it("creates, lists, gets, updates, disables, enables and deletes a webhook", async () => {
    const result = await runPython(
      [SUITE],
      hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: alice, WEBHOOK_URL: PUBLIC_TARGET }),
      120_000,
    );
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "")).toEqual({
      ok: true,
      steps: ["create", "list", "get", "update", "disable", "enable", "delete"],
    });
  }, 120_000);
});

describe("webhook targets without WEBHOOK_ALLOW_PRIVATE", () => {
  it("refuses loopback, the metadata service, private ranges and the hub itself, saying why", async () => {
    for (const url of [
      "http://127.0.0.1:8080/hook",
      "http://169.254.169.254/latest/meta-data/",
      "http://10.1.2.3/hook",
      "http://192.168.0.10/hook",
      "http://[::1]:9000/hook",
      "http://localhost:9000/hook",
      `${hub.url}/api/whoami-v2`,
    ]) {
      const response = await create(url);
      expect(response.status, url).toBe(400);
      expect(((await response.json()) as { error: string }).error, url).toMatch(
        /private address|the hub itself/,
      );
    }
    expect((await create("ftp://203.0.113.7/hook")).status).toBe(400);
    expect((await create(PUBLIC_TARGET)).status).toBe(200);
  });
});

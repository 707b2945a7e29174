import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

/**
 * Attacks on the scanner's reports and policy (issue 35; docs/security.md, "Scan reports read as their files
 * do"): an outsider with an ordinary account against a private repository holding a malicious pickle, and the
 * owner against SCAN_POLICY=block. A hub on loopback; the queue drained by hand (no background workers).
 */
const hub = useTestHub({ scanning: { policy: "block", workers: false } });
let alice: string;
let mallory: string;
/** A protocol-2 pickle calling builtins.eval (GLOBAL, then REDUCE). */
const EVIL = Buffer.from(
  "\x80\x02cbuiltins\neval\nq\x00X\x05\x00\x00\x001 + 1q\x01\x85q\x02Rq\x03.",
  "latin1",
);
const evilSha = createHash("sha256").update(EVIL).digest("hex");

const call = (token: string | undefined, method: string, path: string, body?: unknown) =>
  fetch(`${hub.url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      "Content-Type": body === undefined ? "application/json" : "application/x-ndjson",
    },
    body: body === undefined ? undefined : (body as string),
  });

beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  mallory = await userToken(hub.store, "mallory");
  const create = await fetch(`${hub.url}/api/repos/create`, {
    method: "POST",
    headers: { Authorization: `Bearer ${alice}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "alice/secret", type: "model", private: true }),
  });
  expect(create.status).toBe(200);
  const lines = [
    { key: "header", value: { summary: "weights" } },
    { key: "file", value: { path: "model.pkl", content: EVIL.toString("base64"), encoding: "base64" } },
  ];
  const committed = await call(
    alice,
    "POST",
    "/api/models/alice/secret/commit/main",
    lines.map((line) => JSON.stringify(line)).join("\n"),
  );
  expect(committed.status).toBe(200);
  // The commit queued its file after answering: wait for the row, then scan it.
  for (let tries = 0; tries < 100 && (await hub.store.scanning.counts()).pending === 0; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await hub.scanning!.drain()).toBeGreaterThan(0);
}, 60_000);

describe("scan reports", () => {
  it("are read by the repository's readers only: others get what a missing repository gets", async () => {
    const path = "/api/models/alice/secret/scan/main/model.pkl";
    const own = await call(alice, "GET", path);
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ verdict: "unsafe", sha256: evilSha, downloadable: false });
    expect((await call(mallory, "GET", path)).status).toBe(404);
    expect((await call(undefined, "GET", path)).status).toBe(401);
  });

  it("give nothing to one who knows the content's hash", async () => {
    for (const path of [
      `/api/models/alice/secret/scan/main/${evilSha}`,
      `/api/models/mallory/none/scan/main/${evilSha}`,
      `/api/admin/scanning?sha256=${evilSha}`,
    ]) {
      const response = await call(mallory, "GET", path);
      expect([401, 403, 404]).toContain(response.status);
      expect(await response.text()).not.toContain("builtins");
    }
  });

  it("refuse an outsider's opt-in, and under block refuse the owner's download until the owner allows it", async () => {
    expect((await call(mallory, "POST", "/api/models/alice/secret/scan-allow/main/model.pkl")).status).toBe(
      404,
    );
    const refused = await call(alice, "GET", "/alice/secret/resolve/main/model.pkl");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-error-code")).toBe("unsafe_file");
    expect(await refused.text()).toMatch(/found unsafe.*can allow it/);
    expect((await call(alice, "HEAD", "/alice/secret/resolve/main/model.pkl")).status).toBe(403);
    // The pointer-free raw bytes of a regular file are its bytes too.
    expect((await call(alice, "GET", "/alice/secret/raw/main/model.pkl")).status).toBe(403);
    const allowed = await call(alice, "POST", "/api/models/alice/secret/scan-allow/main/model.pkl");
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toMatchObject({ downloadable: true, allowed: { by: "alice" } });
    const served = await call(alice, "GET", "/alice/secret/resolve/main/model.pkl");
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(EVIL)).toBe(true);
  });
});

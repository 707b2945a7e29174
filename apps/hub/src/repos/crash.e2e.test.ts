import { createHash, randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { type HubProcess, startHubProcess } from "../__fixtures__/hub-process.js";
import { makeTempDir } from "../__fixtures__/temp-dir.js";
import { openTestStore, testDatabaseUrl } from "../__fixtures__/test-store.js";

let temp: ReturnType<typeof makeTempDir>;
let token: string;

/** The real server (`npm start`'s entry) in its own process, so that it can be killed with SIGKILL. */
async function startServer(dataDir: string): Promise<{ child: HubProcess; url: string }> {
  // On the database the suite runs on (HUB_TEST_DATABASE): the data dir's own PostgreSQL schema, or SQLite.
  const databaseUrl = await testDatabaseUrl(dataDir);
  const child = await startHubProcess({
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  return { child, url: child.url };
}

async function killHard(child: HubProcess): Promise<void> {
  await child.stop("SIGKILL");
}

beforeAll(async () => {
  temp = makeTempDir();
  const store = await openTestStore({ dataDir: join(temp.dir, "data") });
  token = await userToken(store, "alice");
  await store.close();
});
afterAll(() => temp.remove());

const json = { "Content-Type": "application/json" };

describe("kill -9 during uploads and commits", () => {
  it("leaves every branch at a commit whose files all exist, and the hub usable after restart", async () => {
    const dataDir = join(temp.dir, "data");
    const auth = { Authorization: `Bearer ${token}` };
    let { child, url } = await startServer(dataDir);
    const created = await fetch(`${url}/api/repos/create`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ name: "alice/crash" }),
    });
    expect(created.status).toBe(200);

    // A large LFS upload that is still streaming when the process dies.
    const big = randomBytes(8 * 1024 * 1024);
    const bigOid = createHash("sha256").update(big).digest("hex");
    const batch = await fetch(`${url}/alice/crash.git/info/lfs/objects/batch`, {
      method: "POST",
      headers: { ...auth, ...json },
      body: JSON.stringify({ operation: "upload", objects: [{ oid: bigOid, size: big.byteLength }] }),
    });
    const href = ((await batch.json()) as { objects: { actions: { upload: { href: string } } }[] })
      .objects[0]!.actions.upload.href;
    let sent = 0;
    const slowBody = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        controller.enqueue(big.subarray(sent, sent + 64 * 1024));
        sent += 64 * 1024;
        if (sent >= big.byteLength) controller.close();
      },
    });
    const upload = fetch(href, {
      method: "PUT",
      body: slowBody,
      headers: { "Content-Length": String(big.byteLength) },
      duplex: "half",
    } as RequestInit).catch(() => undefined);

    // Commits in a tight loop, from four writers at once, until the process dies under them.
    let stop = false;
    let landed = 0;
    const writer = async (id: number) => {
      for (let i = 0; !stop; i++) {
        const content = randomBytes(2048).toString("base64");
        const body = [
          { key: "header", value: { summary: `writer ${id} commit ${i}` } },
          { key: "file", value: { path: `w${id}/${i}.txt`, content, encoding: "base64" } },
          ...(i > 0 ? [{ key: "deletedFile", value: { path: `w${id}/${i - 1}.txt` } }] : []),
        ]
          .map((line) => JSON.stringify(line))
          .join("\n");
        const response = await fetch(`${url}/api/models/alice/crash/commit/main`, {
          method: "POST",
          headers: { ...auth, "Content-Type": "application/x-ndjson" },
          body,
        }).catch(() => undefined);
        if (!response) return;
        if (response.ok) landed++;
        else if (response.status !== 404) throw new Error(`commit failed: ${response.status}`);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await killHard(child);
    stop = true;
    await Promise.all([...writers, upload]);
    expect(landed).toBeGreaterThan(5);
    expect(sent).toBeLessThan(big.byteLength);

    ({ child, url } = await startServer(dataDir));
    try {
      const refs = (await (await fetch(`${url}/api/models/alice/crash/refs`, { headers: auth })).json()) as {
        branches: { name: string; targetCommit: string }[];
      };
      for (const branch of refs.branches) {
        const tree = (await (
          await fetch(`${url}/api/models/alice/crash/tree/${branch.targetCommit}?recursive=true`, {
            headers: auth,
          })
        ).json()) as { path: string; type: string; size: number; oid: string }[];
        const files = tree.filter((entry) => entry.type === "file");
        expect(files.length).toBeGreaterThan(1);
        for (const file of files) {
          const response = await fetch(`${url}/alice/crash/resolve/${branch.targetCommit}/${file.path}`, {
            headers: auth,
          });
          expect(response.status, file.path).toBe(200);
          const bytes = Buffer.from(await response.arrayBuffer());
          expect(bytes.byteLength).toBe(file.size);
          const gitId = createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
          expect(gitId).toBe(file.oid);
        }
      }
      // The interrupted upload left nothing behind: the object is still to be uploaded.
      const again = await fetch(`${url}/alice/crash.git/info/lfs/objects/batch`, {
        method: "POST",
        headers: { ...auth, ...json },
        body: JSON.stringify({ operation: "upload", objects: [{ oid: bigOid, size: big.byteLength }] }),
      });
      const object = ((await again.json()) as { objects: { actions?: unknown }[] }).objects[0]!;
      expect(object.actions).toBeDefined();
      // And the branch takes new commits.
      const after = await fetch(`${url}/api/models/alice/crash/commit/main`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/x-ndjson" },
        body: JSON.stringify({ key: "header", value: { summary: "after the crash" } }),
      });
      expect(after.status).toBe(200);
    } finally {
      await killHard(child);
    }
  }, 120_000);
});

/**
 * A dataset's conversion is queued before the commit that moved main answers, whatever moved it: a commit
 * adding files, one only deleting them, a git push of commits the hub already has. Read right after the answer, the job names the new head; nothing is
 * left to arrive later (on PostgreSQL a queue entry written after the answer once reached the next test).
 */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { useTestHub } from "../__fixtures__/test-hub.js";
import { runGitOk } from "../git/__fixtures__/run-git.js";

const hub = useTestHub();
let token: string;

async function commit(name: string, operations: unknown[], branch = "main"): Promise<string> {
  const response = await fetch(`${hub.url}/api/datasets/alice/${name}/commit/${branch}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: [{ key: "header", value: { summary: "data" } }, ...operations]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  const body = (await response.json()) as { commitOid: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.commitOid;
}

const put = (path: string, text: string) => ({
  key: "file",
  value: { path, content: Buffer.from(text).toString("base64"), encoding: "base64" },
});

const queued = async (name: string) => {
  const repo = (await hub.store.repos.get("dataset", `alice/${name}`))!;
  return hub.viewer!.job(repo);
};

beforeAll(async () => {
  token = await userToken(hub.store, "alice");
}, 60_000);

describe("the viewer's queue", () => {
  it("holds the conversion of main's new head when the commit answers, also of a commit only deleting", async () => {
    const created = await fetch(`${hub.url}/api/repos/create`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "queued", type: "dataset" }),
    });
    expect(created.status).toBe(200);
    // Created with no data commit: nothing to convert yet.
    expect(await queued("queued")).toBeUndefined();

    const added = await commit("queued", [put("a.jsonl", '{"x": 1}'), put("b.jsonl", '{"x": 2}')]);
    expect(await queued("queued")).toMatchObject({ commitOid: added, status: "pending" });
    expect(await hub.viewer!.drain()).toBe(1);
    expect(await queued("queued")).toMatchObject({ convertedOid: added, status: "done" });

    // Only a deletion: the viewer must stop serving b.jsonl's rows, so main's move queues it too.
    const deleted = await commit("queued", [{ key: "deletedFile", value: { path: "b.jsonl" } }]);
    expect(await queued("queued")).toMatchObject({ commitOid: deleted, status: "pending" });
    expect(await hub.viewer!.drain()).toBe(1);
    expect(await queued("queued")).toMatchObject({ convertedOid: deleted, status: "done" });
    expect(await hub.viewer!.drain()).toBe(0);
  }, 120_000);

  it("is not touched by a commit to another branch", async () => {
    const branch = await fetch(`${hub.url}/api/datasets/alice/queued/branch/side`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(branch.status).toBe(200);
    const before = await queued("queued");
    await commit("queued", [put("c.jsonl", '{"x": 3}')], "side");
    expect(await queued("queued")).toEqual(before);
    expect(await hub.viewer!.drain()).toBe(0);
  }, 60_000);

  it("holds main's new head after a git push of commits the hub already has", async () => {
    const side = (await hub.store.repos.ref(
      (await hub.store.repos.get("dataset", "alice/queued"))!.key,
      "refs/heads/side",
    ))!;
    const url = `${hub.url.replace("://", `://git:${token}@`)}/datasets/alice/queued`;
    await runGitOk(hub.dir, ["clone", "--quiet", url, "clone"]);
    // Nothing to send: main only moves to side's commit (the push of known commits).
    await runGitOk(hub.dir, ["push", "--quiet", "origin", "origin/side:main"], {
      cwd: join(hub.dir, "clone"),
    });
    expect(await queued("queued")).toMatchObject({ commitOid: side, status: "pending" });
    expect(await hub.viewer!.drain()).toBe(1);
  }, 60_000);
});

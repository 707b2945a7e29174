import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { repoApp } from "../__fixtures__/repo-app.js";

let hub: Awaited<ReturnType<typeof repoApp>>;

interface CommitView {
  id: string;
  title: string;
}

beforeEach(async () => {
  hub = await repoApp();
  await hub.createRepo("alice/history");
});
afterEach(() => hub.cleanup());

/** Commits `files` with `title` as its summary (the fixture's commitFiles titles every commit alike). */
async function commit(title: string, lines: unknown[], revision = "main"): Promise<void> {
  const response = await hub.app.request(`/api/models/alice/history/commit/${encodeURIComponent(revision)}`, {
    method: "POST",
    headers: { ...hub.auth, "Content-Type": "application/x-ndjson" },
    body: [{ key: "header", value: { summary: title } }, ...lines]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}
const file = (path: string, content: string) => ({
  key: "file",
  value: { path, content: Buffer.from(content).toString("base64"), encoding: "base64" },
});
const deleted = (path: string) => ({ key: "deletedFile", value: { path } });

async function history(rest: string): Promise<{ status: number; titles: string[]; next: string | null }> {
  const response = await hub.app.request(`/api/models/alice/history/commits/${rest}`);
  if (response.status !== 200) return { status: response.status, titles: [], next: null };
  const commits = (await response.json()) as CommitView[];
  return { status: 200, titles: commits.map((c) => c.title), next: response.headers.get("link") };
}

describe("GET /api/models/{id}/commits/{rev}/{path}: history of one path", () => {
  beforeEach(async () => {
    await commit("add a and b", [file("a.txt", "1"), file("dir/b.txt", "1")]);
    await commit("change a", [file("a.txt", "2")]);
    await commit("change b", [file("dir/b.txt", "2")]);
    await commit("rewrite a unchanged", [file("a.txt", "2")]);
    await commit("add c", [file("dir/c.txt", "1")]);
    await commit("delete c", [deleted("dir/c.txt")]);
    await commit("re-add c", [file("dir/c.txt", "3")]);
  });

  it("lists only the commits that changed the file, newest first", async () => {
    expect((await history("main/a.txt")).titles).toEqual(["change a", "add a and b"]);
    expect((await history("main/dir/b.txt")).titles).toEqual(["change b", "add a and b"]);
    // A deletion changes the path too: a re-added file's history goes through it.
    expect((await history("main/dir/c.txt")).titles).toEqual(["re-add c", "delete c", "add c"]);
  });

  it("a folder's history is every commit that changed something under it", async () => {
    expect((await history("main/dir")).titles).toEqual([
      "re-add c",
      "delete c",
      "add c",
      "change b",
      "add a and b",
    ]);
  });

  it("pages with p and limit and a Link to the next page, as the whole history does", async () => {
    const first = await history("main/dir?limit=2");
    expect(first.titles).toEqual(["re-add c", "delete c"]);
    expect(first.next).toContain("p=1");
    expect((await history("main/dir?limit=2&p=1")).titles).toEqual(["add c", "change b"]);
    const last = await history("main/dir?limit=2&p=2");
    expect(last.titles).toEqual(["add a and b"]);
    expect(last.next).toBeNull();
  });

  it("the history at an older revision starts there", async () => {
    const all = (await (
      await hub.app.request("/api/models/alice/history/commits/main")
    ).json()) as CommitView[];
    const changeB = all.find((c) => c.title === "change b")!;
    expect((await history(`${changeB.id}/a.txt`)).titles).toEqual(["change a", "add a and b"]);
    expect((await history(`${changeB.id}/dir/c.txt`)).status).toBe(404);
  });

  it("answers 404 for a path that is not at the revision, 400 for a bad one", async () => {
    expect((await history("main/missing.txt")).status).toBe(404);
    expect((await history("main/a%01.txt")).status).toBe(400);
  });

  it("leaves the whole history unchanged, branch names with slashes included", async () => {
    const whole = await history("main");
    expect(whole.titles).toHaveLength(8); // seven commits and the repository's first one
    expect((await history("main/")).titles).toEqual(whole.titles);
    const head = (await (await hub.app.request("/api/models/alice/history/refs")).json()) as {
      branches: { targetCommit: string }[];
    };
    const branch = await hub.app.request("/api/models/alice/history/branch/feature%2Fx", {
      method: "POST",
      headers: { ...hub.auth, "Content-Type": "application/json" },
      body: JSON.stringify({ startingPoint: head.branches[0]!.targetCommit }),
    });
    expect(branch.status).toBe(200);
    await commit("on the feature branch", [file("a.txt", "feature")], "feature/x");
    // Unencoded as well as encoded, `feature/x` is the branch, not a path `x` on a branch `feature`.
    expect((await history("feature/x")).titles[0]).toBe("on the feature branch");
    expect((await history("feature%2Fx/a.txt")).titles).toEqual([
      "on the feature branch",
      "change a",
      "add a and b",
    ]);
  });
});

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { commit, createRepo, downloadFile, listFiles } from "@huggingface/hub";
import { beforeAll, describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, runPython } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const PR_SUITE = fileURLToPath(new URL("../__fixtures__/clients/hf_hub_pr_suite.py", import.meta.url));

let alice: string;
let bob: string;
const hub = useTestHub();
beforeAll(async () => {
  alice = await userToken(hub.store, "alice");
  bob = await userToken(hub.store, "bob");
});

describe("pull requests and discussions", () => {
  it("huggingface_hub: discussions, comments, create_pr commits, diffs, merges, conflicts, refusals", async () => {
    const env = hfClientEnv(hub.url, join(hub.dir, "hf-home"), { HF_TOKEN: alice, BOB_TOKEN: bob });
    const result = await runPython([PR_SUITE], env);
    expect(result.code, `${result.stdout.slice(-2000)}\n${result.stderr.slice(-4000)}`).toBe(0);
    expect(JSON.parse(result.stdout.trim().split("\n").at(-1) ?? "").steps).toHaveLength(11);
  }, 180_000);

  it("@huggingface/hub: commit({isPullRequest}) opens a pull request another user reads on refs/pr/N", async () => {
    const hubUrl = hub.url;
    const repo = { type: "model" as const, name: "alice/js-prs" };
    await createRepo({ repo, accessToken: alice, hubUrl });
    const proposed = await commit({
      repo,
      accessToken: bob,
      hubUrl,
      useXet: false,
      title: "Propose weights",
      isPullRequest: true,
      operations: [
        { operation: "addOrUpdate", path: "notes.md", content: new Blob(["# notes\n"]) },
        { operation: "addOrUpdate", path: "weights.bin", content: new Blob([new Uint8Array(4096).fill(7)]) },
      ],
    });
    expect(proposed?.pullRequestUrl).toBe(`${hub.url}/alice/js-prs/discussions/1`);
    const files: string[] = [];
    for await (const file of listFiles({ repo, hubUrl, revision: "refs/pr/1" })) files.push(file.path);
    expect(files.sort()).toEqual([".gitattributes", "notes.md", "weights.bin"]);
    const notes = await downloadFile({ repo, hubUrl, path: "notes.md", revision: "refs/pr/1" });
    expect(await notes?.text()).toBe("# notes\n");

    const details = await fetch(`${hub.url}/api/models/alice/js-prs/discussions/1?diff=1`).then((r) =>
      r.json(),
    );
    expect(details).toMatchObject({ num: 1, isPullRequest: true, status: "open", author: { name: "bob" } });
    expect(details.diff).toContain("diff --git a/weights.bin b/weights.bin\nnew file mode 100644");
    const merged = await fetch(`${hub.url}/api/models/alice/js-prs/discussions/1/merge`, {
      method: "POST",
      headers: { Authorization: `Bearer ${alice}` },
    });
    expect(merged.status).toBe(200);
    const main: string[] = [];
    for await (const file of listFiles({ repo, hubUrl })) main.push(file.path);
    expect(main.sort()).toEqual([".gitattributes", "notes.md", "weights.bin"]);
  }, 60_000);
});

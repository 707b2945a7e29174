/**
 * A dataset's downloads as the public hub counts them (https://huggingface.co/docs/hub/datasets-download-stats):
 * every file a client fetches from a dataset within 5 minutes, GET or HEAD, is one download; through the real
 * huggingface_hub (.venv). A space's files are no download (the public hub counts none).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, VENV_PYTHON } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const SCRIPT = `
import json, os, time
from huggingface_hub import HfApi, hf_hub_download, snapshot_download
alice = HfApi(token=os.environ["ALICE"])
home = os.environ["HF_HOME"]
alice.create_repo("alice/observations", repo_type="dataset")
for path in ("data/train.csv", "data/test.csv", "README.md"):
    alice.upload_file(path_or_fileobj=b"a,b\\n1,2\\n", path_in_repo=path, repo_id="alice/observations", repo_type="dataset")
alice.create_repo("alice/site", repo_type="space", space_sdk="static")
alice.upload_file(path_or_fileobj=b"<p>hi</p>", path_in_repo="index.html", repo_id="alice/site", repo_type="space")
# alice: three files, then again from a warm cache (HEADs only): one download, her window is open.
snapshot_download("alice/observations", repo_type="dataset", token=os.environ["ALICE"], cache_dir=os.path.join(home, "a"))
snapshot_download("alice/observations", repo_type="dataset", token=os.environ["ALICE"], cache_dir=os.path.join(home, "a"))
# bob: one file: a second download. Anonymous (this machine's address): a third.
hf_hub_download("alice/observations", "data/train.csv", repo_type="dataset", token=os.environ["BOB"], cache_dir=os.path.join(home, "b"))
hf_hub_download("alice/observations", "data/test.csv", repo_type="dataset", token=False, cache_dir=os.path.join(home, "c"))
snapshot_download("alice/site", repo_type="space", token=os.environ["ALICE"], cache_dir=os.path.join(home, "d"))
info = alice.dataset_info("alice/observations")
for _ in range(100):
    if info.downloads >= 3:
        break
    time.sleep(0.1)
    info = alice.dataset_info("alice/observations")
time.sleep(1.5)  # a later flush would show a count too many
info = alice.dataset_info("alice/observations")
print(json.dumps({
    "downloads": info.downloads,
    "all_time": info.downloads_all_time,
    "space_downloads": getattr(alice.space_info("alice/site"), "downloads", None),
    "listed": [d.id for d in alice.list_datasets(author="alice")],
}))
`;

const hub = useTestHub();

describe("a dataset's downloads through huggingface_hub", () => {
  it("counts a client's files within 5 minutes as one download, HEADs included; a space none", async () => {
    const [alice, bob] = [await userToken(hub.store, "alice"), await userToken(hub.store, "bob")];
    const run = await promisify(execFile)(VENV_PYTHON, ["-c", SCRIPT], {
      env: {
        PATH: process.env.PATH ?? "",
        ...hfClientEnv(hub.url, join(hub.dataDir, "..", "hf-home")),
        ALICE: alice,
        BOB: bob,
      },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(JSON.parse(run.stdout)).toEqual({
      downloads: 3,
      all_time: 3,
      space_downloads: null,
      listed: ["alice/observations"],
    });
  }, 150_000);
});

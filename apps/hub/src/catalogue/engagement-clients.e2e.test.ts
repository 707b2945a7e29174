/**
 * This hub's own counters through the real clients (huggingface_hub from .venv): `hf download`,
 * `snapshot_download` and `hf_hub_download` of a user's own model raise its downloads as the public hub counts
 * them (its library's `countDownloads` rule: config.json for transformers, once per download, never per HEAD);
 * like / unlike / list_liked_repos, `likes` in model_info and `sort=likes` in list_models.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { userToken } from "../__fixtures__/accounts.js";
import { hfClientEnv, VENV_PYTHON } from "../__fixtures__/python-client.js";
import { useTestHub } from "../__fixtures__/test-hub.js";

const SCRIPT = `
import json, os, subprocess, sys, time
from huggingface_hub import HfApi, hf_hub_download, snapshot_download
from huggingface_hub.utils import build_hf_headers, get_session
alice = HfApi(token=os.environ["ALICE"])
bob = HfApi(token=os.environ["BOB"])
card = b"---\\nlibrary_name: transformers\\n---\\n# tiny\\n"
for name in ("alice/liked-model", "alice/plain-model"):
    alice.create_repo(name)
    alice.upload_file(path_or_fileobj=card, path_in_repo="README.md", repo_id=name)
    alice.upload_file(path_or_fileobj=b'{"model_type": "gpt2"}', path_in_repo="config.json", repo_id=name)
    alice.upload_file(path_or_fileobj=b"weights", path_in_repo="model.safetensors", repo_id=name)
home = os.environ["HF_HOME"]
token = os.environ["ALICE"]
# Three downloads: each fetches config.json once (the other files do not count for transformers).
hf_hub_download("alice/liked-model", "config.json", token=token, cache_dir=os.path.join(home, "one"))
snapshot_download("alice/liked-model", token=token, cache_dir=os.path.join(home, "two"))
subprocess.run([os.path.join(os.path.dirname(sys.executable), "hf"), "download", "alice/liked-model",
                "--cache-dir", os.path.join(home, "three"), "--token", token], check=True, capture_output=True)
# From a warm cache: a HEAD per file, no GET: not a download.
snapshot_download("alice/liked-model", token=token, cache_dir=os.path.join(home, "two"))
# huggingface_hub 1.x dropped like() (the public hub likes from its pages); unlike() is the same URL.
def like(repo_id, token):
    get_session().post(f"{os.environ['HF_ENDPOINT']}/api/models/{repo_id}/like", headers=build_hf_headers(token=token)).raise_for_status()
like("alice/liked-model", os.environ["ALICE"])
like("alice/liked-model", os.environ["BOB"])
like("alice/liked-model", os.environ["BOB"])  # twice is still one like
like("alice/plain-model", os.environ["BOB"])
bob.unlike("alice/plain-model")
info = alice.model_info("alice/liked-model")
for _ in range(200):
    if info.downloads >= 3:
        break
    time.sleep(0.1)
    info = alice.model_info("alice/liked-model")
print(json.dumps({
    "downloads": info.downloads,
    "likes": info.likes,
    "plain": alice.model_info("alice/plain-model").likes,
    "bob_likes": bob.list_liked_repos("bob").models,
    "likers": sorted(u.username for u in alice.list_repo_likers("alice/liked-model")),
    "by_likes": [m.id for m in alice.list_models(author="alice", sort="likes")],
}))
`;

const hub = useTestHub();

describe("this hub's own downloads and likes through huggingface_hub", () => {
  it("counts downloads by the library's rule, and likes by this hub's users", async () => {
    const [alice, bob] = [await userToken(hub.store, "alice"), await userToken(hub.store, "bob")];
    const home = join(hub.dataDir, "..", "hf-home");
    // Asynchronously: the hub answers from this same process.
    const run = await promisify(execFile)(VENV_PYTHON, ["-c", SCRIPT], {
      env: { PATH: process.env.PATH ?? "", ...hfClientEnv(hub.url, home), ALICE: alice, BOB: bob },
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(JSON.parse(run.stdout)).toEqual({
      downloads: 3,
      likes: 2,
      plain: 0,
      bob_likes: ["alice/liked-model"],
      likers: ["alice", "bob"],
      by_likes: ["alice/liked-model", "alice/plain-model"],
    });
  }, 150_000);
});

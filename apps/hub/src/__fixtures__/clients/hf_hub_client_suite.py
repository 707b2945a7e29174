"""huggingface_hub, unchanged, against a Modelhub hub on loopback (HF_ENDPOINT, HF_TOKEN from the test).

Every step asserts what the public hub would give; the first failure exits non-zero with its traceback.
"""

import io
import json
import os
import sys
import tempfile

import httpx2 as httpx  # the HTTP client huggingface_hub itself uses
from huggingface_hub import (
    CommitOperationAdd,
    CommitOperationCopy,
    CommitOperationDelete,
    HfApi,
    HfFileSystem,
    hf_hub_download,
    snapshot_download,
)
from huggingface_hub.errors import (
    EntryNotFoundError,
    GatedRepoError,
    HfHubHTTPError,
    RepositoryNotFoundError,
    RevisionNotFoundError,
)
from suite_steps import expect_raises, expect_status, step, steps

ENDPOINT = os.environ["HF_ENDPOINT"]
TOKEN = os.environ["HF_TOKEN"]
api = HfApi()
anonymous = HfApi(token=False)
BOB_TOKEN = os.environ["BOB_TOKEN"]  # another user, with no rights on alice's repositories
bob = HfApi(token=BOB_TOKEN)
REPO = "alice/suite"
BIG = 10 * 1024 * 1024 + 4096  # just over the LFS threshold


step("create_repo answers a URL on the hub's own address")
url = api.create_repo(REPO)
assert str(url) == f"{ENDPOINT}/{REPO}", url
assert url.repo_id == REPO
assert api.list_repo_files(REPO) == [".gitattributes"]
api.create_repo(REPO, exist_ok=True)

step("upload_folder: many small files and one LFS file over 10 MB")
work = tempfile.mkdtemp()
folder = os.path.join(work, "folder")
os.makedirs(os.path.join(folder, "data", "nested"))
for i in range(40):
    with open(os.path.join(folder, "data", f"part-{i:03d}.txt"), "w") as f:
        f.write(f"part {i}\n" * (i + 1))
with open(os.path.join(folder, "data", "nested", "deep.txt"), "w") as f:
    f.write("deep\n")
with open(os.path.join(folder, "config.json"), "w") as f:
    json.dump({"model_type": "bert", "hidden_size": 32}, f)
big_bytes = os.urandom(BIG)
with open(os.path.join(folder, "weights.bin"), "wb") as f:
    f.write(big_bytes)
first = api.upload_folder(repo_id=REPO, folder_path=folder, commit_message="Add the folder")
assert first.oid and len(first.oid) == 40, first
assert first.commit_url == f"{ENDPOINT}/{REPO}/commit/{first.oid}", first.commit_url
files = api.list_repo_files(REPO)
assert "weights.bin" in files and "data/nested/deep.txt" in files and len(files) == 44, files

step("upload_file: a single regular file (bytes)")
api.upload_file(path_or_fileobj=b"# Suite\n", path_in_repo="README.md", repo_id=REPO)
# A backslash is refused with 422, as the public hub refuses "..\\ddd" (huggingface_hub's own test).
expect_status(422, lambda: api.upload_file(path_or_fileobj=b"x", path_in_repo="..\\ddd", repo_id=REPO))

step("model_info with blobs: sha, siblings with sizes, blob ids and LFS info")
info = api.model_info(REPO, files_metadata=True)
siblings = {s.rfilename: s for s in info.siblings}
assert siblings["weights.bin"].lfs is not None and siblings["weights.bin"].lfs.size == BIG
assert siblings["weights.bin"].size == BIG
assert siblings["README.md"].lfs is None and siblings["README.md"].size == 8
assert len(info.sha) == 40 and info.private is False
old = api.model_info(REPO, revision=first.oid)
assert old.sha == first.oid and "README.md" not in {s.rfilename for s in old.siblings}

step("hf_hub_download: regular and LFS files, content checked, then from the cache")
cache = os.path.join(work, "cache")
path = hf_hub_download(REPO, "weights.bin", cache_dir=cache)
with open(path, "rb") as f:
    assert f.read() == big_bytes
path = hf_hub_download(REPO, "data/part-003.txt", cache_dir=cache)
assert open(path).read() == "part 3\n" * 4
path_old = hf_hub_download(REPO, "config.json", revision=first.oid, cache_dir=cache)
assert json.load(open(path_old))["hidden_size"] == 32
expect_raises(EntryNotFoundError, lambda: hf_hub_download(REPO, "missing.txt", cache_dir=cache))
expect_raises(RevisionNotFoundError, lambda: hf_hub_download(REPO, "config.json", revision="nope", cache_dir=cache))
expect_raises(RepositoryNotFoundError, lambda: hf_hub_download("alice/missing", "config.json", cache_dir=cache))

step("snapshot_download with allow/ignore patterns, fresh cache then from cache")
snap_cache = os.path.join(work, "snap")
snap = snapshot_download(REPO, cache_dir=snap_cache, allow_patterns=["data/*.txt", "*.json"], ignore_patterns=["data/part-01*"])
got = sorted(
    os.path.relpath(os.path.join(root, name), snap) for root, _, names in os.walk(snap) for name in names
)
expected = sorted(
    ["config.json", "data/nested/deep.txt"] + [f"data/part-{i:03d}.txt" for i in range(40) if not 10 <= i <= 19]
)
assert got == expected, got
blobs_dir = os.path.join(snap_cache, "models--alice--suite", "blobs")
before = {name: os.stat(os.path.join(blobs_dir, name)).st_mtime_ns for name in os.listdir(blobs_dir)}
again = snapshot_download(REPO, cache_dir=snap_cache, allow_patterns=["data/*.txt", "*.json"], ignore_patterns=["data/part-01*"])
assert again == snap
after = {name: os.stat(os.path.join(blobs_dir, name)).st_mtime_ns for name in os.listdir(blobs_dir)}
assert before == after, "files were downloaded again"

step("create_commit with deletions, a folder deletion and copies (LFS and regular)")
commit = api.create_commit(
    repo_id=REPO,
    commit_message="Reorganise",
    commit_description="Copies and deletions",
    operations=[
        CommitOperationCopy(src_path_in_repo="weights.bin", path_in_repo="copies/weights-copy.bin"),
        CommitOperationCopy(src_path_in_repo="config.json", path_in_repo="copies/config.json"),
        CommitOperationDelete(path_in_repo="data/part-000.txt"),
        CommitOperationDelete(path_in_repo="data/nested/"),
        CommitOperationAdd(path_in_repo="notes/added.txt", path_or_fileobj=io.BytesIO(b"added")),
    ],
)
files = api.list_repo_files(REPO)
assert "copies/weights-copy.bin" in files and "copies/config.json" in files
assert "data/part-000.txt" not in files and not any(f.startswith("data/nested/") for f in files)
with open(hf_hub_download(REPO, "copies/weights-copy.bin", cache_dir=cache), "rb") as f:
    assert f.read() == big_bytes

step("stale parentCommit is refused with 412 (as the public hub), nothing written")
try:
    api.create_commit(
        repo_id=REPO,
        commit_message="stale",
        parent_commit=first.oid,
        operations=[CommitOperationAdd(path_in_repo="stale.txt", path_or_fileobj=b"x")],
    )
    raise AssertionError("a stale parent was accepted")
except Exception as error:  # HfHubHTTPError
    assert getattr(error, "response", None) is not None and error.response.status_code == 412, error
assert "stale.txt" not in api.list_repo_files(REPO)

step("list_repo_tree (plain, recursive, expanded) and get_paths_info")
top = {entry.path: entry for entry in api.list_repo_tree(REPO)}
assert "data" in top and type(top["data"]).__name__ == "RepoFolder"
assert type(top["weights.bin"]).__name__ == "RepoFile" and top["weights.bin"].lfs.size == BIG
recursive = [entry.path for entry in api.list_repo_tree(REPO, recursive=True)]
assert "data/part-039.txt" in recursive and "notes/added.txt" in recursive
expanded = {e.path: e for e in api.list_repo_tree(REPO, path_in_repo="notes", expand=True)}
assert expanded["notes/added.txt"].last_commit.oid == commit.oid
paths = {e.path: e for e in api.get_paths_info(REPO, ["config.json", "data", "missing.txt"], expand=True)}
assert set(paths) == {"config.json", "data"}
assert paths["config.json"].last_commit.oid == first.oid

step("list_repo_commits, list_repo_refs, create_branch, create_tag")
commits = api.list_repo_commits(REPO)
titles = [c.title for c in commits]
assert titles[:2] == ["Reorganise", "Upload README.md with huggingface_hub"], titles
assert titles[-1] == "initial commit" and commits[0].commit_id == commit.oid
assert commits[0].formatted_title is None
formatted = api.list_repo_commits(REPO, formatted=True)
assert [c.formatted_title for c in formatted[:2]] == titles[:2], formatted[0]
assert all(c.formatted_message is not None for c in formatted)
api.create_branch(REPO, branch="dev")
api.create_tag(REPO, tag="v1", revision=first.oid)
api.upload_file(path_or_fileobj=b"dev only", path_in_repo="dev.txt", repo_id=REPO, revision="dev")
refs = api.list_repo_refs(REPO)
assert {b.name for b in refs.branches} == {"main", "dev"}
assert [(t.name, t.target_commit) for t in refs.tags] == [("v1", first.oid)]
assert "dev.txt" in api.list_repo_files(REPO, revision="dev") and "dev.txt" not in api.list_repo_files(REPO)
assert "README.md" not in api.list_repo_files(REPO, revision="v1")
# An abbreviated commit id, as git prints them, names the commit; one too short to be an id is no revision.
assert api.model_info(REPO, revision=first.oid[:7]).sha == first.oid
assert sorted(api.list_repo_files(REPO, revision=first.oid[:10])) == sorted(api.list_repo_files(REPO, revision=first.oid))
expect_raises(RevisionNotFoundError, lambda: api.model_info(REPO, revision=first.oid[:6]))
api.delete_tag(REPO, tag="v1")
expect_raises(RevisionNotFoundError, lambda: api.delete_tag(REPO, tag="v1"))
api.delete_branch(REPO, branch="dev")
assert {b.name for b in api.list_repo_refs(REPO).branches} == {"main"}

step("create_pr: a commit on refs/pr/1")
pr = api.upload_file(path_or_fileobj=b"proposal", path_in_repo="proposal.txt", repo_id=REPO, create_pr=True)
assert pr.pr_url == f"{ENDPOINT}/{REPO}/discussions/1" and pr.pr_num == 1, pr.pr_url
assert "proposal.txt" in api.list_repo_files(REPO, revision="refs/pr/1")
assert "proposal.txt" not in api.list_repo_files(REPO)
assert open(hf_hub_download(REPO, "proposal.txt", revision="refs/pr/1", cache_dir=cache)).read() == "proposal"

step("delete_file and delete_folder")
api.delete_file("README.md", REPO)
api.delete_folder("copies", REPO)
files = api.list_repo_files(REPO)
assert "README.md" not in files and not any(f.startswith("copies/") for f in files)
expect_raises(EntryNotFoundError, lambda: api.delete_file("README.md", REPO))

step("HfFileSystem: ls, glob, read, ranged read")
fs = HfFileSystem()
assert fs.read_text(f"{REPO}/data/part-002.txt") == "part 2\n" * 3
assert sorted(fs.glob(f"{REPO}/data/part-00*.txt")) == [f"{REPO}/data/part-00{i}.txt" for i in range(1, 10)]
with fs.open(f"{REPO}/weights.bin", "rb") as f:
    f.seek(BIG - 10)
    assert f.read() == big_bytes[-10:]

step("ranges, conditional requests and headers on /resolve")
resolve = f"{ENDPOINT}/{REPO}/resolve/main/weights.bin"
head = httpx.head(resolve)
# A hub with BLOB_DOWNLOAD=redirect answers an LFS file with a 302 to its bucket, the metadata on the 302.
redirected = os.environ.get("HUB_TEST_BLOB_DOWNLOAD") == "redirect"
assert head.status_code == (302 if redirected else 200) and head.headers["x-linked-size"] == str(BIG)
etag = head.headers["etag"]
partial = httpx.get(resolve, headers={"Range": "bytes=10-19"}, follow_redirects=redirected)
assert partial.status_code == 206 and partial.content == big_bytes[10:20]
assert partial.headers["content-range"] == f"bytes 10-19/{BIG}"
assert httpx.get(resolve, headers={"If-None-Match": etag}).status_code == 304
raw = httpx.get(f"{ENDPOINT}/{REPO}/raw/main/weights.bin")
assert raw.text.startswith("version https://git-lfs.github.com/spec/v1\noid sha256:")

step("private repository: refused to others (as if missing), readable by its owner")
api.create_repo("alice/secret", private=True)
api.upload_file(path_or_fileobj=b"secret", path_in_repo="s.txt", repo_id="alice/secret")
expect_raises(RepositoryNotFoundError, lambda: anonymous.model_info("alice/secret"))
expect_raises(RepositoryNotFoundError, lambda: bob.model_info("alice/secret"))
expect_raises(
    RepositoryNotFoundError, lambda: hf_hub_download("alice/secret", "s.txt", token=BOB_TOKEN, cache_dir=cache)
)
assert api.model_info("alice/secret").private is True
api.auth_check("alice/secret")
expect_raises(RepositoryNotFoundError, lambda: bob.auth_check("alice/secret"))
assert open(hf_hub_download("alice/secret", "s.txt", cache_dir=cache)).read() == "secret"

step("gated repository: metadata public, files refused until access is granted")
api.create_repo("alice/gated")
api.upload_file(path_or_fileobj=b"gated", path_in_repo="g.txt", repo_id="alice/gated")
api.update_repo_settings("alice/gated", gated="manual")
assert anonymous.model_info("alice/gated").gated == "manual"
expect_raises(GatedRepoError, lambda: hf_hub_download("alice/gated", "g.txt", token=False, cache_dir=cache))
expect_raises(GatedRepoError, lambda: hf_hub_download("alice/gated", "g.txt", token=BOB_TOKEN, cache_dir=cache))
expect_raises(GatedRepoError, lambda: bob.auth_check("alice/gated"))
asked = httpx.post(f"{ENDPOINT}/api/models/alice/gated/ask-access", headers={"Authorization": f"Bearer {BOB_TOKEN}"}, json={"reason": "research"})
assert asked.status_code == 200 and asked.json()["status"] == "pending", asked.text
assert [r.username for r in api.list_pending_access_requests("alice/gated")] == ["bob"]
expect_raises(GatedRepoError, lambda: hf_hub_download("alice/gated", "g.txt", token=BOB_TOKEN, cache_dir=cache))
api.accept_access_request("alice/gated", "bob")
assert [r.username for r in api.list_accepted_access_requests("alice/gated")] == ["bob"]
bob_cache = os.path.join(work, "bob")
assert open(hf_hub_download("alice/gated", "g.txt", token=BOB_TOKEN, cache_dir=bob_cache)).read() == "gated"
api.reject_access_request("alice/gated", "bob", rejection_reason="test")
expect_raises(GatedRepoError, lambda: hf_hub_download("alice/gated", "g.txt", token=BOB_TOKEN, cache_dir=os.path.join(work, "bob2")))
api.grant_access("alice/gated", "bob")
bob.auth_check("alice/gated")
assert open(hf_hub_download("alice/gated", "g.txt", token=BOB_TOKEN, cache_dir=os.path.join(work, "bob3"))).read() == "gated"
assert open(hf_hub_download("alice/gated", "g.txt", cache_dir=cache)).read() == "gated"

step("writes by another user are refused")
api.auth_check(REPO, write=True)
try:
    bob.auth_check(REPO, write=True)
    raise AssertionError("bob may write to alice's repository")
except HfHubHTTPError as error:
    assert error.response.status_code == 403, error
    # The client's trace id came back as the hub's request id, which the error names.
    assert error.response.headers["X-Request-Id"] == error.response.request.headers["X-Amzn-Trace-Id"]
    assert error.request_id == error.response.headers["X-Request-Id"], error.request_id
try:
    bob.upload_file(path_or_fileobj=b"x", path_in_repo="intruder.txt", repo_id=REPO)
    raise AssertionError("bob wrote to alice's repository")
except Exception as error:
    assert getattr(error, "response", None) is not None and error.response.status_code == 403, error

step("move_repo: the old id redirects, delete_repo removes it")
api.move_repo("alice/gated", "alice/gated-moved")
assert open(hf_hub_download("alice/gated", "g.txt", cache_dir=os.path.join(work, "c2"))).read() == "gated"
api.delete_repo("alice/gated-moved")
expect_raises(RepositoryNotFoundError, lambda: api.model_info("alice/gated-moved"))

step("datasets and spaces have the same API under their prefixes")
api.create_repo("alice/data", repo_type="dataset")
api.upload_file(path_or_fileobj=b"a,b\n1,2\n", path_in_repo="train.csv", repo_id="alice/data", repo_type="dataset")
assert open(hf_hub_download("alice/data", "train.csv", repo_type="dataset", cache_dir=cache)).read() == "a,b\n1,2\n"
assert api.dataset_info("alice/data").sha
api.create_repo("alice/demo", repo_type="space", space_sdk="static")
assert "README.md" in api.list_repo_files("alice/demo", repo_type="space")

step("the hf CLI: upload a file, then download it")
import subprocess  # noqa: E402

hf = os.path.join(os.path.dirname(sys.executable), "hf")
cli_file = os.path.join(work, "cli.txt")
with open(cli_file, "w") as f:
    f.write("from the CLI\n")
subprocess.run([hf, "upload", REPO, cli_file, "cli/cli.txt", "--commit-message", "hf upload"], check=True, capture_output=True)
out = subprocess.run(
    [hf, "download", REPO, "cli/cli.txt", "--cache-dir", os.path.join(work, "cli-cache")],
    check=True, capture_output=True, text=True,
).stdout.strip().splitlines()[-1].split("path:")[-1].strip()
assert open(out).read() == "from the CLI\n", out
assert api.list_repo_commits(REPO)[0].title == "hf upload"

print(json.dumps({"ok": True, "steps": steps}))

"""huggingface_hub, unchanged, against a Modelhub hub: list_lfs_files and permanently_delete_lfs_files, each
with its attacks (another user, a read-only token, an object the caller's repository does not hold).
HF_ENDPOINT, HF_TOKEN (alice, write), READ_TOKEN (alice, read) and BOB_TOKEN come from the test."""

import hashlib
import json
import os
import tempfile
from datetime import datetime

from huggingface_hub import HfApi, hf_hub_download
from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError
from suite_steps import expect_raises, expect_status, step, steps

api = HfApi()
reader = HfApi(token=os.environ["READ_TOKEN"])
bob = HfApi(token=os.environ["BOB_TOKEN"])
work = tempfile.mkdtemp()


def sha(data):
    return hashlib.sha256(data).hexdigest()


def download(repo, path, cache, revision=None):
    with open(hf_hub_download(repo, path, revision=revision, cache_dir=os.path.join(work, cache)), "rb") as f:
        return f.read()


def used_storage(repo):
    return api.model_info(repo, expand=["usedStorage"]).used_storage


# A NUL byte makes each an LFS file whatever its size.
v1 = b"\0" + os.urandom(4000)
v2 = b"\0" + os.urandom(6000)
keep = b"\0" + os.urandom(3000)

step("list_lfs_files: every LFS object of the history, with a path, its size and when it was pushed")
REPO = api.create_repo("alice/lfs-purge").repo_id
api.upload_file(path_or_fileobj=v1, path_in_repo="weights.bin", repo_id=REPO)
api.upload_file(path_or_fileobj=v2, path_in_repo="weights.bin", repo_id=REPO)
api.upload_file(path_or_fileobj=keep, path_in_repo="keep.bin", repo_id=REPO)
api.create_branch(REPO, branch="dev")
listed = {f.file_oid: f for f in api.list_lfs_files(REPO)}
assert set(listed) == {sha(v1), sha(v2), sha(keep)}, listed
assert listed[sha(v1)].filename == "weights.bin" and listed[sha(v1)].size == len(v1), listed[sha(v1)]
assert listed[sha(keep)].filename == "keep.bin"
assert isinstance(listed[sha(v1)].pushed_at, datetime) and listed[sha(v1)].ref is None
old_commits = [c.commit_id for c in api.list_repo_commits(REPO)]
storage_before = used_storage(REPO)

step("list_lfs_files is refused to another user, and to a read-only token")
expect_status(403, lambda: list(bob.list_lfs_files(REPO)))
expect_status(403, lambda: list(reader.list_lfs_files(REPO)))
PRIVATE = api.create_repo("alice/lfs-private", private=True).repo_id
expect_raises(RepositoryNotFoundError, lambda: list(bob.list_lfs_files(PRIVATE)))

step("permanently_delete_lfs_files is refused to another user, a read-only token, and for an object not held")
expect_status(403, lambda: bob.permanently_delete_lfs_files(REPO, [listed[sha(v1)]]))
expect_status(403, lambda: reader.permanently_delete_lfs_files(REPO, [listed[sha(v1)]]))
BOBS = bob.create_repo("bob/lfs-own").repo_id
bob.upload_file(path_or_fileobj=b"\0bob", path_in_repo="own.bin", repo_id=BOBS)
# alice's objects, named in bob's own repository: not there, so not found, and alice's stay.
expect_status(404, lambda: bob.permanently_delete_lfs_files(BOBS, [listed[sha(keep)], listed[sha(v1)]]))
assert {f.file_oid for f in api.list_lfs_files(REPO)} == set(listed)
assert download(REPO, "keep.bin", "c0") == keep

step("permanently_delete_lfs_files rewrites the history: no revision holds the object, the rest stays")
SHARED = api.create_repo("alice/lfs-shared").repo_id
api.upload_file(path_or_fileobj=v1, path_in_repo="same.bin", repo_id=SHARED)
api.permanently_delete_lfs_files(REPO, [listed[sha(v1)]])
assert {f.file_oid for f in api.list_lfs_files(REPO)} == {sha(v2), sha(keep)}
commits = api.list_repo_commits(REPO)
assert len(commits) == len(old_commits), (commits, old_commits)
# Every commit from the one that added the object on is rewritten; the repository's first one is not.
assert commits[-1].commit_id == old_commits[-1]
assert not {c.commit_id for c in commits[:-1]} & set(old_commits)
for commit in commits:
    for entry in api.list_repo_tree(REPO, revision=commit.commit_id, recursive=True):
        lfs = getattr(entry, "lfs", None)
        assert lfs is None or lfs.sha256 != sha(v1), (commit.commit_id, entry)
expect_raises(RevisionNotFoundError, lambda: api.list_repo_files(REPO, revision=old_commits[0]))
refs = api.list_repo_refs(REPO)
heads = {branch.name: branch.target_commit for branch in refs.branches}
assert heads["main"] == heads["dev"] == commits[0].commit_id, heads
assert download(REPO, "weights.bin", "c1") == v2
assert download(REPO, "keep.bin", "c1") == keep
# The first upload's commit now has no weights.bin at all.
expect_raises(EntryNotFoundError, lambda: download(REPO, "weights.bin", "c2", revision=commits[-2].commit_id))
assert used_storage(REPO) == storage_before - len(v1), (used_storage(REPO), storage_before)
# Another repository holding the same bytes keeps them.
assert download(SHARED, "same.bin", "c3") == v1

step("deleting the object a branch head has removes the file from that branch")
current = {f.file_oid: f for f in api.list_lfs_files(REPO)}
api.permanently_delete_lfs_files(REPO, [current[sha(v2)]])
assert set(api.list_repo_files(REPO)) == {".gitattributes", "keep.bin"}, api.list_repo_files(REPO)
assert set(api.list_repo_files(REPO, revision="dev")) == {".gitattributes", "keep.bin"}
assert {f.file_oid for f in api.list_lfs_files(REPO)} == {sha(keep)}

print(json.dumps({"ok": True, "steps": steps}))

"""huggingface_hub, unchanged, against a Modelhub hub: the behaviours its own tests expect of the public hub
that the main suite does not cover (gitignore at preupload, card metadata, gated wording, access decisions,
branch and tag errors, history squashing). HF_ENDPOINT, HF_TOKEN and BOB_TOKEN come from the test."""

import json
import os
import tempfile
import warnings

from huggingface_hub import CommitOperationAdd, HfApi, hf_hub_download
from huggingface_hub.errors import GatedRepoError, HfHubHTTPError, RepositoryNotFoundError, RevisionNotFoundError
from suite_steps import expect_raises, expect_status, step, steps

api = HfApi()
BOB_TOKEN = os.environ["BOB_TOKEN"]
bob = HfApi(token=BOB_TOKEN)
work = tempfile.mkdtemp()
BIG = 10 * 1024 * 1024 + 1  # an LFS upload by size


def write(root, path, content):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb") as f:
        f.write(content)


step("upload_folder applies the repository's .gitignore (shouldIgnore at preupload), LFS files included")
REPO = api.create_repo("alice/ignoring").repo_id
api.upload_file(path_or_fileobj=b"nested/*\n*.log\n!keep.log\n", path_in_repo=".gitignore", repo_id=REPO)
folder = os.path.join(work, "folder")
write(folder, "nested/file.txt", b"ignored")
write(folder, "nested/big.bin", b"\0" * 1024)
write(folder, "debug.log", b"ignored")
write(folder, "keep.log", b"kept")
write(folder, "model/weights.bin", os.urandom(BIG))
write(folder, "config.json", b"{}")
api.upload_folder(repo_id=REPO, folder_path=folder)
files = set(api.list_repo_files(REPO))
assert files == {".gitattributes", ".gitignore", "keep.log", "model/weights.bin", "config.json"}, files

step("a .gitignore in the folder itself wins over the repository's")
other = os.path.join(work, "other")
write(other, ".gitignore", b"*.tmp\n")
write(other, "nested/now-kept.txt", b"kept")
write(other, "scratch.tmp", b"ignored")
api.upload_folder(repo_id=REPO, folder_path=other)
files = set(api.list_repo_files(REPO))
assert "nested/now-kept.txt" in files and "scratch.tmp" not in files, files
assert open(hf_hub_download(REPO, ".gitignore", cache_dir=os.path.join(work, "c1"))).read() == "*.tmp\n"

step("invalid card metadata is refused before any upload (validate-yaml), valid metadata passes")
INVALID_MODELCARD = "\n---\nmodel-index: foo\n---\n\nThis is a modelcard with an invalid metadata section.\n"
try:
    api.create_commit(
        repo_id=REPO,
        operations=[
            CommitOperationAdd(path_in_repo="README.md", path_or_fileobj=INVALID_MODELCARD.encode()),
            CommitOperationAdd(path_in_repo="file.txt", path_or_fileobj=b"content"),
        ],
        commit_message="Test commit",
    )
    raise AssertionError("an invalid model-index was accepted")
except ValueError as error:
    assert "Invalid metadata in README.md" in str(error) and "model-index" in str(error), error
assert "file.txt" not in api.list_repo_files(REPO)
with warnings.catch_warnings():
    warnings.simplefilter("error")
    api.upload_file(path_or_fileobj=b"---\nlicense: mit\n---\n# Card\n", path_in_repo="README.md", repo_id=REPO)

step("gated downloads: 'Access to model ... is restricted', GatedRepoError; granting twice is refused")
GATED = api.create_repo("alice/gated-words").repo_id
api.upload_file(path_or_fileobj=b"gated", path_in_repo="g.txt", repo_id=GATED)
api.update_repo_settings(GATED, gated="auto")
try:
    hf_hub_download(GATED, "g.txt", token=BOB_TOKEN, cache_dir=os.path.join(work, "c2"))
    raise AssertionError("bob downloaded a gated file")
except GatedRepoError as error:
    assert "Access to model alice/gated-words is restricted and you are not in the authorized list" in str(error), error
try:
    hf_hub_download(GATED, "g.txt", token=False, cache_dir=os.path.join(work, "c3"))
    raise AssertionError("an anonymous caller downloaded a gated file")
except GatedRepoError as error:
    assert error.response.status_code == 401 and "Access to model alice/gated-words is restricted" in str(error)
DATA = GATED_DS = api.create_repo("alice/gated-data", repo_type="dataset").repo_id
api.upload_file(path_or_fileobj=b"a\n", path_in_repo="d.csv", repo_id=DATA, repo_type="dataset")
api.update_repo_settings(DATA, gated="manual", repo_type="dataset")
try:
    hf_hub_download(DATA, "d.csv", repo_type="dataset", token=BOB_TOKEN, cache_dir=os.path.join(work, "c4"))
    raise AssertionError("bob downloaded a gated dataset file")
except GatedRepoError as error:
    assert "Access to dataset alice/gated-data is restricted" in str(error), error
api.grant_access(GATED, "bob")
expect_status(400, lambda: api.grant_access(GATED, "bob"))
expect_status(400, lambda: api.accept_access_request(GATED, "bob"))
api.reject_access_request(GATED, "bob", rejection_reason="test")
expect_status(400, lambda: api.reject_access_request(GATED, "bob", rejection_reason="test"))
api.cancel_access_request(GATED, "bob")
expect_status(400, lambda: api.cancel_access_request(GATED, "bob"))
api.accept_access_request(GATED, "bob")
assert open(hf_hub_download(GATED, "g.txt", token=BOB_TOKEN, cache_dir=os.path.join(work, "c5"))).read() == "gated"

step("branch and tag errors in the public hub's words and codes")
api.create_branch(REPO, branch="cool-branch")
for branch in ("cool-branch", "main"):
    try:
        api.create_branch(REPO, branch=branch)
        raise AssertionError(f"{branch} created twice")
    except HfHubHTTPError as error:
        assert f"Reference refs/heads/{branch} already exists" in str(error), error
api.create_branch(REPO, branch="cool-branch", exist_ok=True)
api.create_branch(REPO, branch="main", exist_ok=True)
api.create_tag(REPO, tag="tag_1")
err = expect_status(409, lambda: api.create_tag(REPO, tag="tag_1"))
api.create_tag(REPO, tag="tag_1", exist_ok=True)
api.create_branch(REPO, branch="tag_1")  # a branch may share a tag's name
expect_raises(HfHubHTTPError, lambda: api.create_tag(REPO, tag="invalid tag"))
expect_raises(RevisionNotFoundError, lambda: api.create_tag(REPO, tag="invalid tag", revision="foobar"))
expect_raises(RevisionNotFoundError, lambda: api.delete_tag(REPO, tag="v0"))
expect_raises(HfHubHTTPError, lambda: api.delete_tag(REPO, tag="main"))
try:
    api.delete_branch(REPO, branch="main")
    raise AssertionError("main was deleted")
except HfHubHTTPError as error:
    assert "Cannot delete refs/heads/main" in str(error), error
for missing in ("missing-branch", "tag_only"):
    if missing == "tag_only":
        api.create_tag(REPO, tag="tag_only")
    try:
        api.delete_branch(REPO, branch=missing)
        raise AssertionError(f"deleted {missing}")
    except HfHubHTTPError as error:
        assert "Invalid rev id" in str(error), error
for ref in ("refs/pr/5", "refs/something/random"):
    try:
        api.create_branch(REPO, branch=ref)
        raise AssertionError(f"created {ref}")
    except HfHubHTTPError as error:
        assert error.response.status_code == 400 and "Invalid reference for a branch" in str(error), error

step("super_squash_history: one commit of the same files; other branches keep the old history")
SQ = api.create_repo("alice/squash").repo_id
api.upload_file(repo_id=SQ, path_in_repo="file.txt", path_or_fileobj=b"content")
api.upload_file(repo_id=SQ, path_in_repo="lfs.bin", path_or_fileobj=os.urandom(BIG))
api.upload_file(repo_id=SQ, path_in_repo="file.txt", path_or_fileobj=b"another_content")
api.create_branch(repo_id=SQ, branch="v0.1")
api.upload_file(repo_id=SQ, path_in_repo="file.txt", path_or_fileobj=b"foo", revision="v0.1")
before = {f.path: (f.blob_id, f.size) for f in api.list_repo_tree(SQ, recursive=True)}
expect_status(403, lambda: bob.super_squash_history(repo_id=SQ))
api.super_squash_history(repo_id=SQ)
main_commits = api.list_repo_commits(SQ, revision="main")
assert [c.title for c in main_commits] == ["Super-squash branch 'main' using huggingface_hub"], main_commits
assert {f.path: (f.blob_id, f.size) for f in api.list_repo_tree(SQ, recursive=True)} == before
branch_commits = api.list_repo_commits(SQ, revision="v0.1")
assert len(branch_commits) == 5 and branch_commits[-1].title == "initial commit", branch_commits
with open(hf_hub_download(SQ, "lfs.bin", cache_dir=os.path.join(work, "c6")), "rb") as f:
    assert len(f.read()) == BIG
api.super_squash_history(repo_id=SQ, branch="v0.1", commit_message="Squashed v0.1")
assert [c.title for c in api.list_repo_commits(SQ, revision="v0.1")] == ["Squashed v0.1"]
assert open(hf_hub_download(SQ, "file.txt", revision="v0.1", cache_dir=os.path.join(work, "c7"))).read() == "foo"
pr = api.create_pull_request(repo_id=SQ, title="PR to squash")
api.upload_file(repo_id=SQ, path_in_repo="pr.txt", path_or_fileobj=b"a", revision=pr.git_reference)
api.upload_file(repo_id=SQ, path_in_repo="pr.txt", path_or_fileobj=b"b", revision=pr.git_reference)
api.super_squash_history(repo_id=SQ, branch=pr.git_reference)
assert len(api.list_repo_commits(SQ, revision=pr.git_reference)) == 1
expect_raises(RevisionNotFoundError, lambda: api.super_squash_history(repo_id=SQ, branch="missing"))

step("duplicate_repo: the source's files in a new repository; private, gated and namespaces respected")
big = os.urandom(BIG)
SRC = api.create_repo("alice/dup-source", private=True).repo_id
api.upload_file(repo_id=SRC, path_in_repo="weights.bin", path_or_fileobj=big)
api.upload_file(repo_id=SRC, path_in_repo="config.json", path_or_fileobj=b'{"a": 1}')
url = api.duplicate_repo(SRC, to_id="alice/dup-copy")
assert url.repo_id == "alice/dup-copy", url
assert api.model_info("alice/dup-copy").private is True
assert sorted(api.list_repo_files("alice/dup-copy")) == sorted(api.list_repo_files(SRC))
assert api.list_repo_commits("alice/dup-copy")[0].title == "Duplicate from alice/dup-source"
with open(hf_hub_download("alice/dup-copy", "weights.bin", cache_dir=os.path.join(work, "c8")), "rb") as f:
    assert f.read() == big
public = api.duplicate_repo(SRC, to_id="alice/dup-public", private=False)
assert api.model_info(public.repo_id).private is False
expect_status(409, lambda: api.duplicate_repo(SRC, to_id="alice/dup-copy"))
api.duplicate_repo(SRC, to_id="alice/dup-copy", exist_ok=True)
expect_raises(RepositoryNotFoundError, lambda: bob.duplicate_repo(SRC, to_id="bob/stolen"))
expect_raises(GatedRepoError, lambda: bob.duplicate_repo(GATED_DS, to_id="bob/stolen", repo_type="dataset"))
expect_status(403, lambda: bob.duplicate_repo("alice/dup-public", to_id="alice/bobs-copy"))
mine = bob.duplicate_repo("alice/dup-public", to_id="bob/dup-mine")
assert mine.repo_id == "bob/dup-mine" and bob.model_info("bob/dup-mine").private is False
SPACE = api.create_repo("alice/dup-space", repo_type="space", space_sdk="static").repo_id
copy = api.duplicate_repo(SPACE, to_id="alice/dup-space-copy", repo_type="space")
assert "README.md" in api.list_repo_files(copy.repo_id, repo_type="space")

step("list_user_repos (hf repos ls): the caller's repositories of every type with their storage")
listed = {r.id: r for r in api.list_user_repos()}
assert listed["alice/dup-source"].visibility == "private" and listed["alice/dup-source"].storage >= BIG, listed
assert listed["alice/gated-data"].type == "dataset" and listed["alice/dup-space"].type == "space"
assert "bob/dup-mine" not in listed
assert {r.id for r in bob.list_user_repos()} == {"bob/dup-mine"}
expect_status(403, lambda: list(bob.list_user_repos(namespace="alice")))

print(json.dumps({"ok": True, "steps": steps}))

"""Pull requests and discussions with huggingface_hub, unchanged, against a Modelhub hub on loopback.

alice owns alice/prs; bob (another user, write token, no rights on it) discusses and proposes changes.
Every step asserts what the public hub would give; the first failure exits non-zero with its traceback.
"""

import json
import os
import warnings

import httpx2 as httpx  # the HTTP client huggingface_hub itself uses
from huggingface_hub import CommitOperationAdd, CommitOperationDelete, HfApi
from huggingface_hub.errors import RepositoryNotFoundError
from suite_steps import expect_status, step, steps

ENDPOINT = os.environ["HF_ENDPOINT"]
alice = HfApi(token=os.environ["HF_TOKEN"])
bob = HfApi(token=os.environ["BOB_TOKEN"])
anonymous = HfApi(token=False)
REPO = "alice/prs"
warnings.simplefilter("ignore")


step("setup: alice's repository with a README and a config")
alice.create_repo(REPO)
first = alice.create_commit(
    REPO,
    operations=[
        CommitOperationAdd("README.md", b"# prs\n\nline two\nline three\n"),
        CommitOperationAdd("config.json", b'{"model_type": "bert"}\n'),
    ],
    commit_message="first",
)

step("bob opens a discussion; comments, edits and hides")
discussion = bob.create_discussion(REPO, title="A question", description="How was this trained?")
assert discussion.num == 1 and not discussion.is_pull_request and discussion.status == "open"
assert discussion.author == "bob" and discussion.repo_id == REPO and discussion.git_reference is None
assert [e.type for e in discussion.events] == ["comment"] and discussion.events[0].content == "How was this trained?"
comment = bob.comment_discussion(REPO, 1, "Also: which data?")
assert comment.content == "Also: which data?" and comment.author == "bob" and not comment.edited
edited = bob.edit_discussion_comment(REPO, 1, comment.id, "Also: which data set?")
assert edited.edited and edited.content == "Also: which data set?" and edited.number_of_edits == 2
assert [h["raw"] for h in edited.edit_history] == ["Also: which data set?", "Also: which data?"]
expect_status(403, lambda: alice.edit_discussion_comment(REPO, 1, comment.id, "not yours"))
answer = alice.comment_discussion(REPO, 1, "On public data.")
hidden = alice.hide_discussion_comment(REPO, 1, comment.id)  # a writer moderates
assert hidden.hidden and hidden.content == ""
expect_status(403, lambda: bob.hide_discussion_comment(REPO, 1, answer.id))
details = alice.get_discussion_details(REPO, 1)
assert [e.type for e in details.events] == ["comment", "comment", "comment"]
assert details.diff is None and details.target_branch is None

step("bob opens a pull request with create_commit(create_pr=True), an LFS file included")
weights = bytes(range(256)) * 64
pr = bob.create_commit(
    REPO,
    operations=[
        CommitOperationAdd("README.md", b"# prs\n\nline two\nline 3\n"),
        CommitOperationAdd("weights.bin", weights),
        CommitOperationDelete("config.json"),
    ],
    commit_message="Improve the card",
    commit_description="Fixes line three.",
    create_pr=True,
)
assert pr.pr_num == 2 and pr.pr_url == f"{ENDPOINT}/{REPO}/discussions/2", pr.pr_url
assert pr.pr_revision == "refs/pr/2"
assert sorted(alice.list_repo_files(REPO)) == [".gitattributes", "README.md", "config.json"]
assert "weights.bin" in alice.list_repo_files(REPO, revision="refs/pr/2")

step("get_discussion_details: status, target, commits, diff")
details = alice.get_discussion_details(REPO, 2)
assert details.is_pull_request and details.status == "open" and details.target_branch == "refs/heads/main"
assert details.git_reference == "refs/pr/2" and details.conflicting_files == [] and details.merge_commit_oid is None
assert [e.type for e in details.events] == ["comment", "commit"], [e.type for e in details.events]
assert details.events[0].content == "Fixes line three." and details.events[1].oid == pr.oid
assert details.events[1].summary == "Improve the card"
diff = details.diff
assert "diff --git a/README.md b/README.md" in diff and "-line three\n+line 3\n" in diff, diff
assert "diff --git a/config.json b/config.json\ndeleted file mode 100644" in diff, diff
assert "+oid sha256:" in diff  # an LFS file shows as its pointer, as in git

step("bob pushes a second commit to refs/pr/2; refs list the pull request")
second = bob.upload_file(path_or_fileobj=b"notes\n", path_in_repo="NOTES.md", repo_id=REPO, revision="refs/pr/2")
details = alice.get_discussion_details(REPO, 2)
assert [e.oid for e in details.events if e.type == "commit"] == [pr.oid, second.oid]
refs = alice.list_repo_refs(REPO, include_pull_requests=True)
assert [(r.ref, r.target_commit) for r in refs.pull_requests] == [("refs/pr/2", second.oid)], refs.pull_requests

step("get_repo_discussions with filters")
assert [(d.num, d.is_pull_request) for d in alice.get_repo_discussions(REPO)] == [(2, True), (1, False)]
assert [d.num for d in alice.get_repo_discussions(REPO, discussion_type="pull_request")] == [2]
assert [d.num for d in alice.get_repo_discussions(REPO, discussion_type="discussion")] == [1]
assert [d.num for d in alice.get_repo_discussions(REPO, author="bob", discussion_status="open")] == [2, 1]
assert list(alice.get_repo_discussions(REPO, discussion_status="closed")) == []

step("rename by its author; merge refused to bob, done by alice")
bob.rename_discussion(REPO, 2, "Improve the model card")
expect_status(403, lambda: bob.merge_pull_request(REPO, 2))
alice.merge_pull_request(REPO, 2, comment="Thanks!")
files = sorted(alice.list_repo_files(REPO))
assert files == [".gitattributes", "NOTES.md", "README.md", "weights.bin"], files
head = alice.list_repo_commits(REPO)[0]
assert head.title == "Improve the model card (#2)" and head.authors == ["alice"], head
details = alice.get_discussion_details(REPO, 2)
assert details.status == "merged" and details.merge_commit_oid == head.commit_id
types = [e.type for e in details.events]
assert types[-2:] == ["comment", "status-change"] and details.events[-1].new_status == "merged", types
assert "title-change" in types
expect_status(409, lambda: alice.merge_pull_request(REPO, 2))

step("a conflicting pull request: listed conflicts, merge refused, closed and reopened")
conflicting = bob.upload_file(path_or_fileobj=b"bob's readme\n", path_in_repo="README.md", repo_id=REPO, create_pr=True)
alice.upload_file(path_or_fileobj=b"alice's readme\n", path_in_repo="README.md", repo_id=REPO)
details = alice.get_discussion_details(REPO, conflicting.pr_num)
assert details.conflicting_files == ["README.md"], details.conflicting_files
error = expect_status(409, lambda: alice.merge_pull_request(REPO, conflicting.pr_num))
assert "README.md" in error.response.text
change = bob.change_discussion_status(REPO, conflicting.pr_num, "closed", comment="Superseded.")
assert change.new_status == "closed"
assert [d.num for d in alice.get_repo_discussions(REPO, discussion_status="closed")] == [conflicting.pr_num, 2]
alice.change_discussion_status(REPO, conflicting.pr_num, "open")
assert alice.get_discussion_details(REPO, conflicting.pr_num).status == "open"

step("create_pull_request: a draft until its first commit, then merged")
draft = bob.create_pull_request(REPO, title="Add a license")
assert draft.status == "draft" and draft.git_reference == f"refs/pr/{draft.num}"
bob.upload_file(path_or_fileobj=b"MIT\n", path_in_repo="LICENSE", repo_id=REPO, revision=draft.git_reference)
assert alice.get_discussion_details(REPO, draft.num).status == "open"
alice.merge_pull_request(REPO, draft.num)
assert "LICENSE" in alice.list_repo_files(REPO)

step("refusals: anonymous, pushes to someone else's pull request, private repositories")
expect_status(401, lambda: anonymous.create_discussion(REPO, title="anonymous"))
carol_pr = alice.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=REPO, create_pr=True)
expect_status(403, lambda: bob.upload_file(path_or_fileobj=b"y", path_in_repo="y.txt", repo_id=REPO, revision=carol_pr.pr_revision))
expect_status(403, lambda: bob.upload_file(path_or_fileobj=b"y", path_in_repo="y.txt", repo_id=REPO))
alice.create_repo("alice/private-prs", private=True)
try:
    list(bob.get_repo_discussions("alice/private-prs"))
    raise AssertionError("bob listed a private repository's discussions")
except RepositoryNotFoundError:
    pass

step("compare: text and JSON diffs between revisions")
text = httpx.get(f"{ENDPOINT}/api/models/{REPO}/compare/{first.oid}..main")
assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain"), text.text
assert "diff --git a/LICENSE b/LICENSE\nnew file mode 100644" in text.text, text.text
one = httpx.get(f"{ENDPOINT}/api/models/{REPO}/compare/{first.oid}", params={"format": "json"}).json()
assert one["base"] is not None and [f["path"] for f in one["files"]] == ["README.md", "config.json"], one
readme = one["files"][0]
assert readme["status"] == "added" and readme["additions"] == 4 and readme["patch"].startswith("@@ -0,0 +1,4 @@")
pr_side = httpx.get(f"{ENDPOINT}/api/models/{REPO}/compare/main..refs%2Fpr%2F{carol_pr.pr_num}", params={"format": "json"})
assert [f["path"] for f in pr_side.json()["files"]] == ["x.txt"], pr_side.text

print(json.dumps({"ok": True, "steps": steps}))

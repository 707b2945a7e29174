"""Single-segment legacy model ids (`gpt2`) through huggingface_hub and transformers, unchanged.

The test creates the repository `gpt2` with the admin command (only the site creates such ids) and commits to
it over HTTP: huggingface_hub 1.x no longer parses a commit URL without a namespace (the public hub moved its
canonical models into organizations), so its uploads to such an id fail client-side after the commit. Here
everyone reads it by its one-segment id; `create_repo("plain")` without a namespace creates `alice/plain`.
"""

import hashlib
import json
import os
import tempfile

import httpx2 as httpx  # the HTTP client huggingface_hub itself uses
from huggingface_hub import HfApi, hf_hub_download, snapshot_download
from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

ENDPOINT = os.environ["HF_ENDPOINT"]
admin = HfApi()
alice = HfApi(token=os.environ["ALICE_TOKEN"])
anonymous = HfApi(token=False)
REPO = "gpt2"
work = tempfile.mkdtemp()

# A user naming no namespace gets the repository in her own, as on the public hub.
url = alice.create_repo("plain")
assert url.repo_id == "alice/plain" and str(url) == f"{ENDPOINT}/alice/plain", url

SHA = os.environ["GPT2_SHA"]  # the commit the test made on gpt2 (config.json, README.md, model.safetensors)
WEIGHTS_SHA256 = os.environ["GPT2_WEIGHTS_SHA256"]
WEIGHTS_SIZE = 64 * 1024
config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 32, "n_layer": 2, "n_head": 2, "vocab_size": 64}  # noqa: E501

# Writes by others are refused: nobody owns a legacy id but the site.
try:
    alice.upload_file(path_or_fileobj=b"x", path_in_repo="x.txt", repo_id=REPO)
    raise AssertionError("alice wrote to gpt2")
except Exception as error:
    assert getattr(error, "response", None) is not None and error.response.status_code == 403, error

# model_info, with and without a revision (/api/models/gpt2 and /api/models/gpt2/revision/main).
info = anonymous.model_info(REPO, files_metadata=True)
assert info.id == REPO and info.sha == SHA, info
siblings = {s.rfilename: s for s in info.siblings}
assert siblings["model.safetensors"].lfs.size == WEIGHTS_SIZE
assert anonymous.model_info(REPO, revision="main").sha == SHA
assert info.card_data["license"] == "mit" and info.pipeline_tag == "text-generation"

# tree, paths-info, commits, refs, list_repo_files.
assert sorted(anonymous.list_repo_files(REPO)) == [".gitattributes", "README.md", "config.json", "model.safetensors"]
tree = {entry.path: entry for entry in anonymous.list_repo_tree(REPO, expand=True)}
assert tree["config.json"].last_commit.oid == SHA
paths = {entry.path for entry in anonymous.get_paths_info(REPO, ["config.json", "missing"])}
assert paths == {"config.json"}
assert [c.commit_id for c in anonymous.list_repo_commits(REPO)][0] == SHA
assert [b.name for b in anonymous.list_repo_refs(REPO).branches] == ["main"]
admin.create_tag(REPO, tag="v1")
assert [t.name for t in anonymous.list_repo_refs(REPO).tags] == ["v1"]

# /resolve: the headers huggingface_hub relies on, and the downloads.
head = httpx.head(f"{ENDPOINT}/{REPO}/resolve/main/model.safetensors")
assert head.status_code == 200 and head.headers["x-repo-commit"] == SHA, head.headers
cache = os.path.join(work, "cache")
path = hf_hub_download(REPO, "model.safetensors", cache_dir=cache, token=False)
assert hashlib.sha256(open(path, "rb").read()).hexdigest() == WEIGHTS_SHA256
assert os.path.isdir(os.path.join(cache, "models--gpt2"))
try:
    hf_hub_download(REPO, "missing.txt", cache_dir=cache, token=False)
    raise AssertionError("a missing file was found")
except EntryNotFoundError:
    pass
snapshot = snapshot_download(REPO, cache_dir=os.path.join(work, "snap"), allow_patterns=["*.json", "*.md"], token=False)
assert sorted(os.listdir(snapshot)) == ["README.md", "config.json"], os.listdir(snapshot)
# (HfFileSystem refuses single-segment ids itself: "Single-segment ids (e.g. 'gpt2') are no longer supported.")

# A one-segment id that does not exist is missing, not a malformed request.
try:
    anonymous.model_info("no-such-legacy-model")
    raise AssertionError("a missing legacy id was found")
except RepositoryNotFoundError:
    pass

from transformers import AutoConfig  # noqa: E402  (importing is slow)

loaded = AutoConfig.from_pretrained(REPO, cache_dir=os.path.join(work, "tf"))
assert loaded.model_type == "gpt2" and loaded.n_embd == 32, loaded

# The public hub's history: the canonical model moved into an organization; the old id keeps resolving.
# (move_repo refuses a one-segment source client-side, so the move is the API call it would have made.)
moving = httpx.post(
    f"{ENDPOINT}/api/repos/move",
    headers={"Authorization": f"Bearer {os.environ['HF_TOKEN']}"},
    json={"fromRepo": REPO, "toRepo": "openai-community/gpt2", "type": "model"},
)
assert moving.status_code == 200, moving.text
moved = anonymous.model_info(REPO)
assert moved.id == "openai-community/gpt2" and moved.sha == SHA, moved
path = hf_hub_download(REPO, "config.json", cache_dir=os.path.join(work, "after-move"), token=False)
assert json.load(open(path)) == config
assert AutoConfig.from_pretrained(REPO, cache_dir=os.path.join(work, "tf-moved")).n_embd == 32

print(json.dumps({"ok": True, "sha": SHA}))

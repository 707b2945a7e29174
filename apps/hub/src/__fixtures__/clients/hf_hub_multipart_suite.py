"""huggingface_hub's multipart LFS path against a hub whose part size is 1 MiB (the test starts it so).

Uploads a 5.5 MiB file with upload_file, then another with the `hf upload` CLI, and checks both come back
byte for byte. Prints the transfers the hub chose (read from the batch answers through an httpx hook).
"""

import hashlib
import json
import os
import sys
import tempfile

import httpx

from huggingface_hub import HfApi, hf_hub_download
from huggingface_hub.cli.hf import main as hf_main
from huggingface_hub.utils import _http

api = HfApi()
REPO = "alice/multipart"
work = tempfile.mkdtemp()
chosen = []


def remember_transfer(response):
    if response.request.url.path.endswith("/info/lfs/objects/batch"):
        response.read()
        chosen.append(response.json().get("transfer"))


_http.set_client_factory(
    lambda: httpx.Client(
        event_hooks={"request": [_http.hf_request_event_hook], "response": [remember_transfer]},
        follow_redirects=True,
        timeout=None,
    )
)

api.create_repo(REPO)
big = os.urandom(5 * 1024 * 1024 + 512 * 1024)
api.upload_file(path_or_fileobj=big, path_in_repo="weights.bin", repo_id=REPO)
path = hf_hub_download(REPO, "weights.bin", cache_dir=os.path.join(work, "cache"))
assert hashlib.sha256(open(path, "rb").read()).hexdigest() == hashlib.sha256(big).hexdigest()
info = api.get_paths_info(REPO, ["weights.bin"])[0]
assert info.lfs.sha256 == hashlib.sha256(big).hexdigest() and info.size == len(big)

cli_file = os.path.join(work, "cli.bin")
cli_bytes = os.urandom(3 * 1024 * 1024 + 7)
open(cli_file, "wb").write(cli_bytes)
# The `hf` CLI, run in this process so that the hook above sees its batch request too.
sys.argv = ["hf", "upload", REPO, cli_file, "cli.bin"]
try:
    hf_main()
except SystemExit as exit:
    assert exit.code in (0, None), exit.code
path = hf_hub_download(REPO, "cli.bin", cache_dir=os.path.join(work, "cache"))
assert open(path, "rb").read() == cli_bytes

print(json.dumps({"ok": True, "transfers": chosen}))

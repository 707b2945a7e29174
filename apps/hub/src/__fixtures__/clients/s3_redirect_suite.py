"""huggingface_hub (and hf_xet) against a hub whose blobs are in an S3 bucket and whose downloads are
redirected to presigned URLs. argv[1]: "lfs" (run with HF_HUB_DISABLE_XET=1) or "xet"; argv[2]: a work
directory. Prints one JSON line of results."""

import hashlib
import json
import os
import random
import sys

from huggingface_hub import HfApi, get_hf_file_metadata, hf_hub_download, hf_hub_url

mode, work = sys.argv[1], sys.argv[2]
api = HfApi()
user = api.whoami()["name"]
repo = f"{user}/s3-suite"
api.create_repo(repo, exist_ok=True)
out = {"steps": []}


def write_random(name, size, seed):
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(random.Random(seed).randbytes(size))
    with open(path, "rb") as f:
        return path, hashlib.sha256(f.read()).hexdigest()


if mode == "xet":
    # hf_xet uploads xorbs and shards to the hub's CAS (xorbs land in the bucket) and downloads back.
    path, sha = write_random("xet.bin", 3_000_000, 2)
    api.upload_file(path_or_fileobj=path, path_in_repo="xet.bin", repo_id=repo)
    got = hf_hub_download(repo, "xet.bin", cache_dir=os.path.join(work, "cache-xet"))
    with open(got, "rb") as f:
        assert hashlib.sha256(f.read()).hexdigest() == sha, "downloaded bytes differ"
    print(json.dumps({"steps": ["xet upload", "xet download"]}))
    sys.exit(0)

# Git LFS path: the bytes go to the bucket through the hub.
lfs_path, lfs_sha = write_random("lfs.bin", 7_000_000, 1)
api.upload_file(path_or_fileobj=lfs_path, path_in_repo="lfs.bin", repo_id=repo)
api.upload_file(path_or_fileobj=b'{"model_type": "gpt2"}', path_in_repo="config.json", repo_id=repo)
out["steps"].append("upload lfs")

meta = get_hf_file_metadata(hf_hub_url(repo, "lfs.bin"))
out["location"] = meta.location
out["etag"] = meta.etag
out["size"] = meta.size
got = hf_hub_download(repo, "lfs.bin", cache_dir=os.path.join(work, "cache-lfs"))
with open(got, "rb") as f:
    assert hashlib.sha256(f.read()).hexdigest() == lfs_sha, "downloaded bytes differ"
config = hf_hub_download(repo, "config.json", cache_dir=os.path.join(work, "cache-lfs"))
with open(config) as f:
    assert json.load(f)["model_type"] == "gpt2"
out["steps"].append("download through redirect")
print(json.dumps(out))

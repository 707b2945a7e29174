"""huggingface_hub with hf_xet, unchanged, against the hub on HF_ENDPOINT: uploads through Xet and downloads
back (through Xet, or through plain HTTP when HF_HUB_DISABLE_XET=1). argv[1]: "upload" or "download";
argv[2]: a work directory shared by both runs. Prints one JSON line of results."""

import hashlib
import json
import os
import random
import subprocess
import sys

import hf_xet
from huggingface_hub import CommitOperationAdd, HfApi, hf_hub_download, snapshot_download

mode, work = sys.argv[1], sys.argv[2]
api = HfApi()
user = api.whoami()["name"]
repo = f"{user}/xet-suite"
src = os.path.join(work, "src")


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def xet_hash(path):
    return hf_xet.hash_files([path])[0].hash


def hf_cli(*args):
    """The `hf` CLI of the same virtualenv, as a user runs it (same environment: HF_ENDPOINT, HF_TOKEN)."""
    cli = os.path.join(os.path.dirname(sys.executable), "hf")
    subprocess.run([cli, *args], check=True, capture_output=True, timeout=120)


def write_random(path, size, seed):
    rng = random.Random(seed)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(rng.randbytes(size))


steps = []
results = {}
if mode == "upload":
    api.create_repo(repo, exist_ok=True)
    write_random(os.path.join(src, "big.bin"), 12_000_000, 1)
    api.upload_file(path_or_fileobj=os.path.join(src, "big.bin"), path_in_repo="big.bin", repo_id=repo)
    steps.append("upload_file")
    write_random(os.path.join(src, "folder", "weights.safetensors"), 3_000_000, 2)
    with open(os.path.join(src, "folder", "README.md"), "w") as f:
        f.write("# xet suite\n")
    api.upload_folder(folder_path=os.path.join(src, "folder"), path_in_repo="folder", repo_id=repo)
    steps.append("upload_folder")
    rng = random.Random(3)
    blob = rng.randbytes(5_000_000)
    with open(os.path.join(src, "commit.bin"), "wb") as f:
        f.write(blob)
    api.create_commit(repo_id=repo, operations=[CommitOperationAdd("commit.bin", blob)], commit_message="bytes")
    steps.append("create_commit")
    write_random(os.path.join(src, "cli.bin"), 2_000_000, 4)
    hf_cli("upload", repo, os.path.join(src, "cli.bin"), "cli.bin")
    steps.append("hf upload")
    infos = {i.path: i for i in api.get_paths_info(repo, ["big.bin", "commit.bin", "cli.bin"])}
    assert infos["big.bin"].lfs is not None and infos["big.bin"].lfs.sha256 == sha(os.path.join(src, "big.bin"))
    # xetHash, as huggingface_hub reads it, is the Xet file hash hf_xet computes locally.
    for name in ("big.bin", "commit.bin", "cli.bin"):
        assert infos[name].xet_hash == xet_hash(os.path.join(src, name)), f"paths-info xetHash of {name}"
    tree = {f.path: f for f in api.list_repo_tree(repo, recursive=True) if hasattr(f, "xet_hash")}
    assert tree["folder/weights.safetensors"].xet_hash == xet_hash(os.path.join(src, "folder", "weights.safetensors"))
    assert tree["folder/README.md"].xet_hash is None, "a small git file has no xetHash"
    steps.append("xetHash")
    # More than hf_xet's 64 MiB xorb limit: two xorbs, which hf_xet sends at once. In a repository of its own
    # so the download runs do not fetch it.
    multi = os.path.join(src, "multi-xorb.bin")
    write_random(multi, 70 * 1024 * 1024, 5)
    api.create_repo(f"{user}/xet-suite-multi-xorb", exist_ok=True)
    api.upload_file(path_or_fileobj=multi, path_in_repo="multi-xorb.bin", repo_id=f"{user}/xet-suite-multi-xorb")
    multi_info = api.get_paths_info(f"{user}/xet-suite-multi-xorb", ["multi-xorb.bin"])[0]
    assert multi_info.lfs is not None and multi_info.lfs.sha256 == sha(multi), "multi-xorb sha256"
    results["multi_xorb_hash"] = xet_hash(multi)
    steps.append("upload_file multi-xorb")
else:
    expected = {
        "big.bin": sha(os.path.join(src, "big.bin")),
        "folder/weights.safetensors": sha(os.path.join(src, "folder", "weights.safetensors")),
        "folder/README.md": sha(os.path.join(src, "folder", "README.md")),
        "commit.bin": sha(os.path.join(src, "commit.bin")),
        "cli.bin": sha(os.path.join(src, "cli.bin")),
    }
    path = hf_hub_download(repo, "big.bin")
    assert sha(path) == expected["big.bin"], "hf_hub_download bytes differ"
    steps.append("hf_hub_download")
    snap = snapshot_download(repo)
    for name, digest in expected.items():
        assert sha(os.path.join(snap, name)) == digest, f"snapshot {name} differs"
    steps.append("snapshot_download")
    out = os.path.join(work, f"cli-out-{os.environ.get('HF_HUB_DISABLE_XET', '0')}")
    hf_cli("download", repo, "cli.bin", "--local-dir", out)
    assert sha(os.path.join(out, "cli.bin")) == expected["cli.bin"], "hf download bytes differ"
    steps.append("hf download")

print(json.dumps({"ok": True, "mode": mode, "xet_disabled": os.environ.get("HF_HUB_DISABLE_XET") == "1", "steps": steps, **results}))

"""The real Python clients, unchanged, against a mirror hub (HF_ENDPOINT) in front of an upstream hub
(mirror-clients.e2e.test.ts). argv[1] is the step set:

- "pull": the upstream is up and nothing is cached yet: `hf download` (the CLI), `snapshot_download` through
  hf_xet and with Xet disabled, transformers AutoConfig/AutoTokenizer, `datasets.load_dataset`.
- "cached": the upstream is stopped: `snapshot_download` into a fresh cache still gets every file, byte for byte.

MIRROR_SUITE (JSON) names what upstream holds: {"model": id, "files": {path: sha256}, "cli_file": path, "model_type":
config.json's, "dataset": id, "dataset_rows": [{...}, ...] (its train split)}; the model has a tokenizer.json with
"<|endoftext|>". Prints one JSON line: {"ok": true, "steps": [...]}.
"""

import hashlib
import json
import os
import subprocess
import sys

import huggingface_hub.constants as hub_constants
from huggingface_hub import snapshot_download

mode = sys.argv[1]
seeded = json.loads(os.environ["MIRROR_SUITE"])
home = os.environ["HF_HOME"]
steps = []


def step(name):
    steps.append(name)
    print(f"step: {name}", flush=True)


def sha(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def check_snapshot(folder, label):
    for path, digest in seeded["files"].items():
        assert sha(os.path.join(folder, path)) == digest, f"{label}: {path} differs from upstream's bytes"


if mode == "pull":
    # The CLI, as a user runs it: its own process, the same environment (HF_ENDPOINT at the mirror).
    out = os.path.join(home, "cli-out")
    cli = os.path.join(os.path.dirname(sys.executable), "hf")
    done = subprocess.run(
        [cli, "download", seeded["model"], seeded["cli_file"], "--local-dir", out],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert sha(os.path.join(out, seeded["cli_file"])) == seeded["files"][seeded["cli_file"]], "hf download differs"
    step("hf download")

    check_snapshot(snapshot_download(seeded["model"], cache_dir=os.path.join(home, "xet")), "hf_xet")
    step("snapshot_download (hf_xet)")

    # What HF_HUB_DISABLE_XET=1 sets at import; huggingface_hub reads it at each download.
    hub_constants.HF_HUB_DISABLE_XET = True
    check_snapshot(snapshot_download(seeded["model"], cache_dir=os.path.join(home, "no-xet")), "Xet disabled")
    hub_constants.HF_HUB_DISABLE_XET = False
    step("snapshot_download (HF_HUB_DISABLE_XET)")

    from transformers import AutoConfig, AutoTokenizer  # noqa: E402  (importing is slow: only where used)

    config = AutoConfig.from_pretrained(seeded["model"])
    assert config.model_type == seeded["model_type"], config
    tokenizer = AutoTokenizer.from_pretrained(seeded["model"])
    text = "Hello, wörld! 你好"
    ids = tokenizer(text)["input_ids"]
    assert tokenizer.decode(ids) == text, ids
    assert tokenizer.eos_token == "<|endoftext|>" and tokenizer.eos_token in tokenizer.get_vocab()
    step("transformers AutoConfig + AutoTokenizer")

    from datasets import load_dataset  # noqa: E402

    rows = load_dataset(seeded["dataset"], split="train")
    assert [dict(row) for row in rows] == seeded["dataset_rows"], list(rows)
    step("datasets.load_dataset")
elif mode == "cached":
    check_snapshot(snapshot_download(seeded["model"], cache_dir=os.path.join(home, "after-stop")), "upstream stopped")
    step("snapshot_download (upstream stopped)")
else:
    raise SystemExit(f"unknown step set {mode!r}: pull or cached")

print(json.dumps({"ok": True, "steps": steps}))

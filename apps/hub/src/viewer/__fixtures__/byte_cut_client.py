"""The byte cut end to end: `make` uploads a CSV larger than the hub's (test-sized) split limit and a small
one with huggingface_hub; `check` downloads refs/convert/parquet with hf_hub_download, reads it with pyarrow
and compares it with pandas' reading of the original's first bytes (up to its last whole line within the
limit), and prints one JSON object of findings."""
import io, json, os, sys
import pandas as pd
import pyarrow.parquet as pq
import requests
from huggingface_hub import HfApi, hf_hub_download

api = HfApi()
HUB = os.environ["HF_ENDPOINT"]
TOKEN = os.environ["HF_TOKEN"]
LIMIT = int(os.environ["SPLIT_LIMIT_BYTES"])
REPO = "alice/cut"


def big_csv():
    lines = ["id,text"] + [f"{k},ligne {k} héllo" for k in range(2000)]
    return ("\n".join(lines) + "\n").encode()


def make():
    api.create_repo(REPO, repo_type="dataset")
    api.upload_file(path_or_fileobj=big_csv(), path_in_repo="train.csv", repo_id=REPO, repo_type="dataset")
    api.upload_file(path_or_fileobj=b"id,text\n1,un\n2,deux\n", path_in_repo="test.csv", repo_id=REPO, repo_type="dataset")


def viewer(endpoint, **params):
    response = requests.get(f"{HUB}/datasets-server/{endpoint}", params=params,
                            headers={"authorization": f"Bearer {TOKEN}"})
    response.raise_for_status()
    return response.json()


def check():
    raw = big_csv()
    head = raw[:LIMIT]
    head = head[: head.rfind(b"\n") + 1]
    expected = pd.read_csv(io.BytesIO(head))
    path = hf_hub_download(REPO, "default/train/0000.parquet", repo_type="dataset", revision="refs/convert/parquet")
    converted = pq.read_table(path).to_pandas()
    test_path = hf_hub_download(REPO, "default/test/0000.parquet", repo_type="dataset", revision="refs/convert/parquet")
    rows = viewer("rows", dataset=REPO, config="default", split="train", offset=0, length=1)
    test_rows = viewer("rows", dataset=REPO, config="default", split="test", offset=0, length=10)
    size = viewer("size", dataset=REPO)
    parquet = viewer("parquet", dataset=REPO)
    print(json.dumps({
        "full_rows": 2000,
        "expected_rows": len(expected),
        "converted_rows": len(converted),
        "equal": bool(converted.reset_index(drop=True).equals(expected.reset_index(drop=True))),
        "rows_total": rows["num_rows_total"],
        "rows_partial": rows["partial"],
        "test_rows": len(pq.read_table(test_path)),
        "test_partial": test_rows["partial"],
        "dataset_original_bytes": size["size"]["dataset"]["num_bytes_original_files"],
        "size_partial": size["partial"],
        "parquet_partial": parquet["partial"],
        "head_bytes": len(head),
    }))


{"make": make, "check": check}[sys.argv[1]]()

"""Arrow files in the dataset viewer: `make` writes `.arrow` files with pyarrow (an IPC stream in several
record batches, an IPC file, a truncated stream) and with `datasets`' `save_to_disk` (a Dataset and a
DatasetDict, their `state.json` and `dataset_info.json` beside), uploaded with huggingface_hub; `check`
compares the viewer's /splits, /first-rows and /rows with pyarrow's reading of the same files and
`datasets.load_dataset(revision="refs/convert/parquet")` with loading the originals, and prints one JSON object
of findings."""
import datetime, io, json, math, os, sys, tempfile
import pandas as pd
import pyarrow as pa
import requests
from huggingface_hub import HfApi

api = HfApi()
HUB = os.environ["HF_ENDPOINT"]
TOKEN = os.environ["HF_TOKEN"]


def types_table(rows, seed):
    return pa.table({
        "i": pa.array([None if k % 7 == 0 else k * seed for k in range(rows)], pa.int64()),
        "f": pa.array([math.nan if k % 5 == 0 else (None if k % 11 == 0 else k / 3) for k in range(rows)], pa.float64()),
        "s": pa.array([None if k % 13 == 0 else f"ligne {k} — héllo ✓ 日本 🌍" for k in range(rows)], pa.string()),
        "d": pa.array([datetime.date(2024, 1, 1) + datetime.timedelta(days=k) for k in range(rows)], pa.date32()),
        "ts": pa.array(pd.date_range("2024-03-30 23:00", periods=rows, freq="37min", tz="Europe/Paris")),
        "l": pa.array([[k, k + 1] if k % 3 else ([] if k % 2 else None) for k in range(rows)], pa.list_(pa.int64())),
        "st": pa.array([{"a": k, "b": f"b{k}"} for k in range(rows)], pa.struct([("a", pa.int64()), ("b", pa.string())])),
    })


def stream_bytes(table, batch_rows):
    sink = io.BytesIO()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        for batch in table.to_batches(max_chunksize=batch_rows):
            writer.write_batch(batch)
    return sink.getvalue()


def file_bytes(table, batch_rows):
    sink = io.BytesIO()
    with pa.ipc.new_file(sink, table.schema) as writer:
        for batch in table.to_batches(max_chunksize=batch_rows):
            writer.write_batch(batch)
    return sink.getvalue()


def saved_dataset(rows):
    import datasets
    features = datasets.Features({
        "text": datasets.Value("string"),
        "label": datasets.ClassLabel(names=["neg", "pos"]),
        "scores": datasets.List(datasets.Value("float32")),
    })
    return datasets.Dataset.from_dict({
        "text": [f"phrase {k} ünïcode" for k in range(rows)],
        "label": [k % 2 for k in range(rows)],
        "scores": [[k / 2, -k / 4] for k in range(rows)],
    }, features=features)


def folder_files(folder):
    files = {}
    for root, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, folder)] = f.read()
    return files


def upload(repo, files):
    api.create_repo(repo, repo_type="dataset")
    api.upload_folder(folder_path=write_folder(files), repo_id=repo, repo_type="dataset")


def write_folder(files):
    folder = tempfile.mkdtemp()
    for path, content in files.items():
        os.makedirs(os.path.dirname(os.path.join(folder, path)), exist_ok=True)
        with open(os.path.join(folder, path), "wb") as f:
            f.write(content)
    return folder


def make():
    import datasets
    upload("alice/arrow-types", {
        "train.arrow": stream_bytes(types_table(250, 1), 40),
        "test.arrow": file_bytes(types_table(20, 2), 7),
    })
    saved = tempfile.mkdtemp()
    saved_dataset(30).save_to_disk(saved)
    upload("alice/arrow-saved", folder_files(saved))
    saved_dict = tempfile.mkdtemp()
    datasets.DatasetDict({"train": saved_dataset(12), "test": saved_dataset(5)}).save_to_disk(saved_dict)
    upload("alice/arrow-saved-dict", folder_files(saved_dict))
    whole = stream_bytes(types_table(100, 3), 10)
    upload("alice/arrow-truncated", {"train.arrow": whole[: len(whole) - 300]})


def viewer(endpoint, **params):
    return requests.get(f"{HUB}/datasets-server/{endpoint}", params=params,
                        headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60)


def plain(value):
    """A value as the viewer's JSON says it: NaN as None, timestamps as instants in UTC, dates as ISO text."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, (pd.Timestamp, datetime.datetime)):
        return pd.Timestamp(value).tz_convert("UTC").isoformat()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def viewer_value(name, value):
    """The viewer's cell as plain(): its timestamps are text with an offset, its dates ISO text."""
    if name == "ts" and value is not None:
        return pd.Timestamp(value).tz_convert("UTC").isoformat()
    return value


def viewer_rows(answer):
    return [{k: viewer_value(k, v) for k, v in r["row"].items()} for r in answer["rows"]]


def read_arrow(content):
    try:
        return pa.ipc.open_stream(io.BytesIO(content)).read_all()
    except pa.ArrowInvalid:
        return pa.ipc.open_file(io.BytesIO(content)).read_all()


def check():
    import datasets
    from huggingface_hub import hf_hub_download
    found = {}
    for split, rows, seed, maker, batch in (("train", 250, 1, stream_bytes, 40), ("test", 20, 2, file_bytes, 7)):
        expected = [plain(row) for row in read_arrow(maker(types_table(rows, seed), batch)).to_pylist()]
        got = []
        for offset in range(0, rows, 100):
            response = viewer("rows", dataset="alice/arrow-types", config="default", split=split, offset=offset, length=100)
            if response.status_code != 200:
                raise SystemExit(f"/rows answered {response.status_code}: {response.text}")
            answer = response.json()
            found.setdefault(f"{split}_total", answer["num_rows_total"])
            found.setdefault("features", answer["features"])
            got += viewer_rows(answer)
        found[f"{split}_rows_equal"] = got == expected
        if got != expected:
            found[f"{split}_first_diff"] = next(([a, b] for a, b in zip(got, expected) if a != b), [len(got), len(expected)])
        first = viewer("first-rows", dataset="alice/arrow-types", config="default", split=split).json()
        found[f"{split}_first_rows_equal"] = viewer_rows(first) == expected[:100]
    found["splits_types"] = viewer("splits", dataset="alice/arrow-types").json()
    found["splits_saved"] = viewer("splits", dataset="alice/arrow-saved").json()
    found["splits_saved_dict"] = viewer("splits", dataset="alice/arrow-saved-dict").json()
    saved = viewer("rows", dataset="alice/arrow-saved", config="default", split="train", offset=0, length=100).json()
    found["saved_features"] = saved["features"]
    found["saved_rows_equal"] = viewer_rows(saved) == [plain(r) for r in saved_dataset(30).to_list()]
    truncated = viewer("splits", dataset="alice/arrow-truncated")
    found["truncated"] = {"status": truncated.status_code, "body": truncated.json()}
    # The Parquet file on refs/convert/parquet carries the `datasets` features of the saved dataset.
    path = hf_hub_download("alice/arrow-saved", "default/train/0000.parquet", repo_type="dataset", revision="refs/convert/parquet")
    import pyarrow.parquet as pq
    metadata = pq.read_schema(path).metadata or {}
    found["saved_parquet_features"] = json.loads(metadata.get(b"huggingface", b"{}")).get("info", {}).get("features")
    for repo in ("alice/arrow-types", "alice/arrow-saved", "alice/arrow-saved-dict"):
        converted = datasets.load_dataset(repo, revision="refs/convert/parquet")
        originals = datasets.load_dataset(repo)
        found[f"load_{repo}"] = {
            "splits": sorted(converted.keys()),
            "equal": sorted(converted.keys()) == sorted(originals.keys())
            and all(plain(converted[s].to_list()) == plain(originals[s].to_list()) for s in originals),
            "features_equal": all(converted[s].features == originals[s].features for s in originals),
        }
    print(json.dumps(found))


{"make": make, "check": check}[sys.argv[1]]()

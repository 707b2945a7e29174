"""The dataset viewer's test client: `make` builds and uploads datasets with pyarrow/pandas through
huggingface_hub; `check` compares the viewer's answers and `datasets.load_dataset(revision="refs/convert/parquet")`
with independent readings of the same files, and prints one JSON object of findings."""
import io, json, math, os, sys, tempfile
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import requests
from huggingface_hub import HfApi

api = HfApi()
HUB = os.environ["HF_ENDPOINT"]
TOKEN = os.environ["HF_TOKEN"]


def types_table(rows, seed):
    return pa.table({
        "i": pa.array([None if k % 7 == 0 else k * seed for k in range(rows)], pa.int64()),
        "f": pa.array([math.nan if k % 5 == 0 else k / 3 for k in range(rows)], pa.float64()),
        "s": pa.array([f"ligne {k} — héllo ✓ 日本" for k in range(rows)], pa.string()),
        "ts": pa.array(pd.date_range("2024-03-30 23:00", periods=rows, freq="37min", tz="Europe/Paris")),
        "l": pa.array([[k, k + 1] if k % 3 else [] for k in range(rows)], pa.list_(pa.int64())),
        "st": pa.array([{"a": k, "b": f"b{k}"} for k in range(rows)], pa.struct([("a", pa.int64()), ("b", pa.string())])),
    })


def parquet_bytes(table):
    sink = io.BytesIO()
    pq.write_table(table, sink)
    return sink.getvalue()


def upload(repo, files, private=False):
    api.create_repo(repo, repo_type="dataset", private=private)
    for path, content in files.items():
        api.upload_file(path_or_fileobj=content, path_in_repo=path, repo_id=repo, repo_type="dataset")


def make():
    upload("alice/types", {
        "data/train-00000-of-00001.parquet": parquet_bytes(types_table(250, 1)),
        "data/test-00000-of-00001.parquet": parquet_bytes(types_table(20, 2)),
    })
    readme = """---
configs:
- config_name: first
  data_files: "first/*.csv"
- config_name: second
  data_files:
  - split: train
    path: second/a.jsonl
  - split: test
    path: second/b.jsonl
---
# Two configs
"""
    upload("alice/yaml", {
        "README.md": readme.encode(),
        "first/x.csv": b"n,word\n1,un\n2,deux\n",
        "first/y.csv": b"n,word\n3,trois\n",
        "second/a.jsonl": b'{"q": "a?", "tags": ["x"]}\n{"q": "b?", "tags": []}\n',
        "second/b.jsonl": b'{"q": "c?", "tags": ["y", "z"]}\n',
    })
    names = {}
    for split, count in (("train", 30), ("validation", 5), ("test", 7)):
        frame = pd.DataFrame({"id": range(count), "score": [k * 0.5 for k in range(count)], "text": [f"{split} é {k}" for k in range(count)]})
        names[f"{split}.csv"] = frame.to_csv(index=False).encode()
    upload("alice/names", names)
    upload("alice/ragged", {"train.csv": b"a,b\n1,2\n3,4,5\n6,7\n"})
    upload("alice/secret", {"train.csv": b"a\n1\n"}, private=True)


def viewer(endpoint, token=None, **params):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(f"{HUB}/datasets-server/{endpoint}", params=params, headers=headers, timeout=60)


def plain(value):
    """A value as the viewer's JSON says it: NaN as None, timestamps as instants."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, pd.Timestamp) or hasattr(value, "tzinfo") and hasattr(value, "isoformat"):
        return pd.Timestamp(value).tz_convert("UTC").isoformat()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def viewer_row(row):
    out = dict(row)
    out["ts"] = pd.Timestamp(row["ts"]).tz_convert("UTC").isoformat()
    return out


def check():
    found = {}
    # Every page of /rows equals pyarrow's reading of the original file.
    original = pq.read_table(io.BytesIO(parquet_bytes(types_table(250, 1)))).to_pylist()
    expected = [{k: plain(v) for k, v in row.items()} for row in original]
    got = []
    for offset in (0, 100, 200):
        response = viewer("rows", TOKEN, dataset="alice/types", config="default", split="train", offset=offset, length=100)
        if response.status_code != 200:
            raise SystemExit(f"/rows answered {response.status_code}: {response.text}")
        answer = response.json()
        found.setdefault("num_rows_total", answer["num_rows_total"])
        found.setdefault("partial", answer["partial"])
        found.setdefault("features", answer["features"])
        got += [viewer_row(r["row"]) for r in answer["rows"]]
        found.setdefault("row_idx", []).append(answer["rows"][0]["row_idx"])
    found["rows_equal"] = got == expected
    if not found["rows_equal"]:
        found["first_diff"] = next(([a, b] for a, b in zip(got, expected) if a != b), [len(got), len(expected)])
    found["splits_types"] = viewer("splits", TOKEN, dataset="alice/types").json()
    found["splits_yaml"] = viewer("splits", TOKEN, dataset="alice/yaml").json()
    found["first_rows_yaml_second_test"] = viewer("first-rows", TOKEN, dataset="alice/yaml", config="second", split="test").json()
    found["splits_names"] = viewer("splits", TOKEN, dataset="alice/names").json()
    ragged = viewer("splits", TOKEN, dataset="alice/ragged")
    found["ragged"] = {"status": ragged.status_code, "body": ragged.json()}
    found["search"] = viewer("search", TOKEN, dataset="alice/names", config="default", split="train", query="TRAIN é 1", length=5).json()
    found["size_names"] = viewer("size", TOKEN, dataset="alice/names").json()
    found["parquet_names"] = viewer("parquet", TOKEN, dataset="alice/names").json()
    found["secret_anonymous"] = viewer("rows", None, dataset="alice/secret", config="default", split="train").status_code
    found["secret_owner"] = viewer("rows", TOKEN, dataset="alice/secret", config="default", split="train").status_code
    # Hostile parameters: quoted into the query as text, never run as SQL; unknown names are 404s.
    hostile = viewer("search", TOKEN, dataset="alice/names", config="default", split="train",
                     query="x') OR 1=1 UNION SELECT * FROM read_csv('/etc/passwd') --")
    found["hostile_search"] = {"status": hostile.status_code, "total": hostile.json().get("num_rows_total")}
    found["hostile_split"] = viewer("rows", TOKEN, dataset="alice/names", config="default", split="../../etc").status_code
    found["hostile_dataset"] = viewer("rows", TOKEN, dataset="../../alice/names", config="default", split="train").status_code
    found["too_long"] = viewer("rows", TOKEN, dataset="alice/types", config="default", split="train", length=101).status_code

    # /statistics equals pandas' and numpy's numbers over the original columns, with the public viewer's bins.
    import numpy as np
    stats = {s["column_name"]: s for s in viewer("statistics", TOKEN, dataset="alice/types", config="default", split="train").json()["statistics"]}
    table = types_table(250, 1).to_pandas()

    def expected_numbers(values, integer):
        present = values.dropna()
        lo, hi = round(float(present.min()), 5), round(float(present.max()), 5)
        if integer:
            lo, hi = int(lo), int(hi)
            size = math.ceil((hi - lo + 1) / 10)
            edges = list(range(lo, hi + 1, size)) + [hi]
        else:
            edges = np.arange(lo, hi, (hi - lo) / 10).astype(float).tolist() + [hi]
        hist = np.histogram(present.to_numpy(dtype=float), bins=edges)[0].tolist()
        nan = int(values.isna().sum())
        return {
            "nan_count": nan, "nan_proportion": round(nan / len(values), 5),
            "min": lo, "max": hi, "mean": round(float(present.mean()), 5), "median": round(float(present.median()), 5),
            "std": round(float(present.std()), 5),
            "histogram": {"hist": hist, "bin_edges": edges if integer else np.round(edges, 5).tolist()},
        }

    found["stats_types"] = {
        "f": [stats["f"]["column_type"], stats["f"]["column_statistics"] == expected_numbers(table["f"], False)],
        "i": [stats["i"]["column_type"], stats["i"]["column_statistics"] == expected_numbers(table["i"].astype("Float64"), True)],
        "l": [stats["l"]["column_type"], stats["l"]["column_statistics"] == expected_numbers(table["l"].map(len), True)],
        "s": [stats["s"]["column_type"], stats["s"]["column_statistics"] == expected_numbers(table["s"].str.len(), True)],
    }
    if not all(ok for _, ok in found["stats_types"].values()):
        found["stats_detail"] = {k: stats[k]["column_statistics"] for k in ("f", "i", "l", "s")}

    # datasets reads refs/convert/parquet as it reads the originals.
    import datasets
    for repo in ("alice/names", "alice/types"):
        converted = datasets.load_dataset(repo, revision="refs/convert/parquet")
        originals = datasets.load_dataset(repo)
        found[f"load_{repo}"] = {
            "splits": sorted(converted.keys()),
            "equal": sorted(converted.keys()) == sorted(originals.keys())
            and all(plain(converted[s].to_list()) == plain(originals[s].to_list()) for s in originals),
        }
    print(json.dumps(found))


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]]()

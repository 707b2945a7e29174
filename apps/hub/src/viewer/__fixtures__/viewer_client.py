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
    # Image and audio folders, as the library's folder builders read them.
    upload_folder("alice/pictures", PICTURES)
    upload_folder("alice/captioned", CAPTIONED)
    upload_folder("alice/sounds", SOUNDS)
    upload_folder("alice/hidden-pictures", {"a/x.png": png(3, 2, 1), "b/y.png": png(2, 3, 2)}, private=True)


def png(width, height, seed, kind="PNG"):
    """An image of its own pixels, encoded by Pillow."""
    from PIL import Image
    image = Image.new("RGB", (width, height))
    image.putdata([((seed * 40 + k * 7) % 256, (k * 13) % 256, (seed * 90) % 256) for k in range(width * height)])
    sink = io.BytesIO()
    image.save(sink, format=kind)
    return sink.getvalue()


def wav(frames, rate=8000):
    """A mono 16-bit WAV of `frames` samples, by the standard library."""
    import wave
    sink = io.BytesIO()
    with wave.open(sink, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes((k * 7) % 256 for k in range(frames * 2)))
    return sink.getvalue()


# Folders by class (labels from folder names), split by folder; a JPEG among the PNGs.
PICTURES = {
    "train/cat/c1.png": png(4, 3, 1),
    "train/cat/c2.jpg": png(5, 6, 2, "JPEG"),
    "train/dog/d1.png": png(7, 2, 3),
    "test/cat/c3.png": png(2, 2, 4),
    "test/dog/d2.png": png(3, 5, 5),
}
# Metadata rows name their images (one in a sub-folder) and carry text and numbers.
CAPTIONED = {
    "metadata.jsonl": (
        '{"file_name": "one.png", "caption": "a red fox jumps", "score": 1.5}\n'
        '{"file_name": "sub/two.png", "caption": "deux renards ✓ jumping", "score": 2.5}\n'
        '{"file_name": "three.gif", "caption": "the lazy dog", "score": null}\n'
    ).encode(),
    "one.png": png(6, 4, 6),
    "sub/two.png": png(3, 3, 7),
    "three.gif": png(4, 4, 8, "GIF"),
    "unlisted.png": png(2, 2, 9),
}
SOUNDS = {
    "metadata.csv": b"file_name,speaker,text\na.wav,ana,hello there\nb.wav,bo,good morning\n",
    "a.wav": wav(800),
    "b.wav": wav(1600),
}


def upload_folder(repo, files, private=False):
    """All files in one commit (the viewer converts each commit of main)."""
    from huggingface_hub import CommitOperationAdd
    api.create_repo(repo, repo_type="dataset", private=private)
    api.create_commit(repo_id=repo, repo_type="dataset", commit_message="add files",
                      operations=[CommitOperationAdd(path_in_repo=p, path_or_fileobj=c) for p, c in files.items()])


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

    # Image and audio folders: cells as the public viewer's, compared with Pillow's and pandas' readings.
    found.update(check_folders())

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


def fetched(url, token=TOKEN):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(url, headers=headers, timeout=60)


def image_cell_ok(cell, original):
    """The cell's size is Pillow's reading of the original, and its URL answers the original's bytes."""
    from PIL import Image
    width, height = Image.open(io.BytesIO(original)).size
    return cell["width"] == width and cell["height"] == height and fetched(cell["src"]).content == original


def check_folders():
    found = {}
    # Labels from folders: features and every row of both splits.
    pictures = {}
    for split in ("train", "test"):
        answer = viewer("first-rows", TOKEN, dataset="alice/pictures", config="default", split=split).json()
        pictures[split] = answer
    found["pictures_features"] = pictures["train"]["features"]
    expected_rows = {
        split: [(path, ["cat", "dog"].index(path.split("/")[1])) for path in sorted(PICTURES) if path.startswith(split + "/")]
        for split in ("train", "test")
    }
    found["pictures_rows_ok"] = all(
        len(pictures[split]["rows"]) == len(expected_rows[split])
        and all(
            row["row"]["label"] == label and image_cell_ok(row["row"]["image"], PICTURES[path])
            for row, (path, label) in zip(pictures[split]["rows"], expected_rows[split])
        )
        for split in ("train", "test")
    )
    if not found["pictures_rows_ok"]:
        found["pictures_detail"] = pictures

    # Metadata rows (JSON Lines): pandas' reading of the metadata, with the named images.
    captioned = viewer("rows", TOKEN, dataset="alice/captioned", config="default", split="train").json()
    metadata = pd.read_json(io.BytesIO(CAPTIONED["metadata.jsonl"]), lines=True)
    found["captioned_features"] = [f["name"] for f in captioned["features"]]
    found["captioned_rows_ok"] = len(captioned["rows"]) == len(metadata) and all(
        row["row"]["caption"] == record["caption"]
        and plain(row["row"]["score"]) == plain(record["score"])
        and image_cell_ok(row["row"]["image"], CAPTIONED[record["file_name"]])
        for row, record in zip(captioned["rows"], metadata.to_dict("records"))
    )
    if not found["captioned_rows_ok"]:
        found["captioned_detail"] = captioned
    found["captioned_search"] = [
        r["row_idx"] for r in viewer("search", TOKEN, dataset="alice/captioned", config="default", split="train", query="FOX renards").json()["rows"]
    ]

    # Audio with a CSV of metadata: players' sources answer the files.
    sounds = viewer("rows", TOKEN, dataset="alice/sounds", config="default", split="train").json()
    metadata = pd.read_csv(io.BytesIO(SOUNDS["metadata.csv"]))
    found["sounds_features"] = sounds["features"]
    found["sounds_rows_ok"] = len(sounds["rows"]) == len(metadata) and all(
        row["row"]["speaker"] == record["speaker"]
        and row["row"]["text"] == record["text"]
        and [s["type"] for s in row["row"]["audio"]] == ["audio/wav"]
        and fetched(row["row"]["audio"][0]["src"]).content == SOUNDS[record["file_name"]]
        for row, record in zip(sounds["rows"], metadata.to_dict("records"))
    )
    if not found["sounds_rows_ok"]:
        found["sounds_detail"] = sounds

    # A private folder's image URLs answer as its files do: to its owner, not to anyone else.
    hidden = viewer("first-rows", TOKEN, dataset="alice/hidden-pictures", config="default", split="train").json()
    src = hidden["rows"][0]["row"]["image"]["src"]
    found["hidden_src"] = {"owner": fetched(src).status_code, "anonymous": fetched(src, None).status_code}

    # The Parquet files hold the images' bytes as the library writes them: load_dataset decodes them.
    import datasets
    converted = datasets.load_dataset("alice/pictures", revision="refs/convert/parquet")
    originals = datasets.load_dataset("alice/pictures")
    found["load_alice/pictures"] = {
        "features": str(converted["train"].features),
        "equal": sorted(converted) == sorted(originals) and all(
            [(list(r["image"].getdata()), r["image"].size, r["label"]) for r in converted[s]]
            == [(list(r["image"].getdata()), r["image"].size, r["label"]) for r in originals[s]]
            for s in originals
        ),
    }
    return found


if __name__ == "__main__":
    {"make": make, "check": check}[sys.argv[1]]()

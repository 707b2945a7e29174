/**
 * Arrow IPC files staged as Parquet (viewer-arrow.ts): files written by pyarrow (record batches cut into
 * several chunks, dictionaries replaced between batches, the IPC file format, the pre-0.15 framing, a file of
 * no rows) are read back from the staged Parquet files by pyarrow and compared with pyarrow's reading of the
 * originals; files that are not whole Arrow files are refused with what is wrong.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runPython } from "../__fixtures__/python-client.js";
import { ArrowFileError, stageArrowFiles } from "./viewer-arrow.js";

const MAKE = `
import sys, datetime, pyarrow as pa
folder = sys.argv[1]
def table(rows, words):
    return pa.table({
        "i": pa.array([None if k % 4 == 0 else k for k in range(rows)], pa.int64()),
        "s": pa.array([f"mot {k} é" for k in range(rows)], pa.large_string()),
        "w": pa.array([words[k % len(words)] for k in range(rows)]).dictionary_encode(),
        "ts": pa.array([datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(hours=k) for k in range(rows)], pa.timestamp("ms", tz="Asia/Tokyo")),
        "l": pa.array([[{"x": k}] * (k % 3) for k in range(rows)], pa.list_(pa.struct([("x", pa.int32())]))),
    })
first, second = table(30, ["un", "deux"]), table(20, ["trois", "quatre", "cinq"])
# A stream whose dictionary is replaced between batches (pyarrow writes a new dictionary batch).
with pa.OSFile(f"{folder}/replaced.arrow", "wb") as f:
    with pa.ipc.new_stream(f, first.schema, options=pa.ipc.IpcWriteOptions(emit_dictionary_deltas=False)) as w:
        for batch in first.to_batches(max_chunksize=7) + second.to_batches(max_chunksize=7):
            w.write_batch(batch)
with pa.OSFile(f"{folder}/file.arrow", "wb") as f:
    with pa.ipc.new_file(f, first.schema) as w:
        for batch in first.to_batches(max_chunksize=9):
            w.write_batch(batch)
# The framing before Arrow 0.15: no continuation marker before a message's length.
with pa.OSFile(f"{folder}/legacy.arrow", "wb") as f:
    with pa.ipc.new_stream(f, first.schema, options=pa.ipc.IpcWriteOptions(use_legacy_format=True)) as w:
        for batch in first.to_batches(max_chunksize=10):
            w.write_batch(batch)
with pa.OSFile(f"{folder}/empty.arrow", "wb") as f:
    with pa.ipc.new_stream(f, first.schema) as w:
        pass
`;

const COMPARE = `
import sys, json, pyarrow as pa, pyarrow.parquet as pq
original, parts = sys.argv[1], sys.argv[2:]
with open(original, "rb") as f:
    try:
        expected = pa.ipc.open_stream(f).read_all()
    except pa.ArrowInvalid:
        f.seek(0)
        expected = pa.ipc.open_file(f).read_all()
got = pa.concat_tables([pq.read_table(p) for p in parts]) if parts else None
plain = lambda t: [{k: (str(v) if k == "ts" else v) for k, v in r.items()} for r in t.cast(pa.schema([fld.with_type(pa.string()) if pa.types.is_dictionary(fld.type) else fld for fld in t.schema])).to_pylist()]
print(json.dumps({"rows": got.num_rows, "equal": plain(got) == plain(expected), "types": [str(t) for t in got.schema.types]}))
`;

async function python(script: string, args: string[]) {
  const result = await runPython(["-c", script, ...args], {});
  if (result.code !== 0) throw new Error(result.stderr.slice(-2000));
  return result.stdout;
}

describe("Arrow files staged as Parquet", () => {
  const folder = mkdtempSync(join(tmpdir(), "viewer-arrow-"));

  it("keeps every row, value and type through chunks, replaced dictionaries and both IPC formats", async () => {
    await python(MAKE, [folder]);
    // Rows, and record batches (7 rows each in the stream, 30 then 20 rows; 9 in the file).
    for (const [name, expectedRows, batches] of [
      ["replaced.arrow", 50, 5 + 3],
      ["file.arrow", 30, 4],
      ["legacy.arrow", 30, 3],
      ["empty.arrow", 0, 0],
    ] as const) {
      const work = mkdtempSync(join(folder, "work-"));
      // One byte per chunk: every record batch is a chunk of its own, each its own Parquet file.
      const staged = await stageArrowFiles([join(folder, name)], [name], work, 1);
      // A file of no rows still gives one (empty) Parquet file: its schema makes the split's columns.
      expect(staged.parts.length, name).toBe(Math.max(1, batches));
      const compared = JSON.parse(await python(COMPARE, [join(folder, name), ...staged.parts]));
      expect(compared, name).toMatchObject({ rows: expectedRows, equal: true });
      expect(compared.types, name).toEqual([
        "int64",
        "large_string",
        "dictionary<values=string, indices=int32, ordered=0>",
        "timestamp[ms, tz=Asia/Tokyo]",
        "list<item: struct<x: int32>>",
      ]);
    }
  }, 60_000);

  it("refuses files that are not whole Arrow files, saying what is wrong", async () => {
    await python(MAKE, [folder]);
    const whole = join(folder, "replaced.arrow");
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(whole);
    const cases: [string, Buffer, RegExp][] = [
      [
        "cut.arrow",
        bytes.subarray(0, bytes.length - 100),
        /cut\.arrow ends inside a record batch .*truncated/,
      ],
      ["cut-header.arrow", bytes.subarray(0, 6), /cut-header\.arrow ends inside .*truncated/],
      ["text.arrow", Buffer.from("a,b\n1,2\n"), /text\.arrow is not an Arrow IPC stream or file/],
      ["nothing.arrow", Buffer.alloc(0), /nothing\.arrow is empty/],
    ];
    for (const [name, content, message] of cases) {
      writeFileSync(join(folder, name), content);
      const work = mkdtempSync(join(folder, "work-"));
      const staging = stageArrowFiles([join(folder, name)], [name], work);
      await expect(staging, name).rejects.toThrow(ArrowFileError);
      await expect(staging, name).rejects.toThrow(message);
    }
  }, 60_000);
});

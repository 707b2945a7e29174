import { describe, expect, it } from "vitest";
import { parseBlobSettings } from "./blob-store-config.js";

describe("DOWNLOAD_OFFLOAD", () => {
  const parse = (env: Record<string, string>) => {
    const problems: string[] = [];
    return { settings: parseBlobSettings(env, problems), problems };
  };

  it("x-accel on the data directory, with the default or a given internal prefix", () => {
    expect(parse({ DOWNLOAD_OFFLOAD: "x-accel" })).toEqual({
      settings: {
        blobStore: { kind: "fs" },
        blobDownload: "proxy",
        downloadOffload: { kind: "x-accel", prefix: "/_hub_blobs/" },
      },
      problems: [],
    });
    expect(
      parse({ DOWNLOAD_OFFLOAD: "x-accel", DOWNLOAD_OFFLOAD_PREFIX: "/internal/blobs/" }).settings
        .downloadOffload,
    ).toEqual({
      kind: "x-accel",
      prefix: "/internal/blobs/",
    });
    expect(parse({}).settings.downloadOffload).toBeUndefined();
  });

  it("refuses an unknown mode, a prefix that is not a path of its own, and an object store", () => {
    expect(parse({ DOWNLOAD_OFFLOAD: "sendfile" }).problems).toEqual([
      'DOWNLOAD_OFFLOAD must be "x-accel" or unset, got "sendfile".',
    ]);
    for (const prefix of ["/", "internal/", "/internal", "/a/../b/"]) {
      expect(parse({ DOWNLOAD_OFFLOAD: "x-accel", DOWNLOAD_OFFLOAD_PREFIX: prefix }).problems[0]).toContain(
        "DOWNLOAD_OFFLOAD_PREFIX must be a URL path of its own",
      );
    }
    expect(parse({ DOWNLOAD_OFFLOAD: "x-accel", BLOB_STORE: "s3://bucket" }).problems).toEqual([
      "DOWNLOAD_OFFLOAD=x-accel serves files from the data directory: with BLOB_STORE=s3 use BLOB_DOWNLOAD=redirect instead.",
    ]);
  });
});

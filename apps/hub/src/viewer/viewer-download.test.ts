/** The conversion's copies of dataset files: a split's byte limit cut at a line break; IO errors retried. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { downloadContent, MissingContentError } from "./viewer-download.js";

const dir = mkdtempSync(join(tmpdir(), "viewer-download-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const chunks =
  (...parts: string[]) =>
  async () =>
    Readable.from(parts.map((part) => Buffer.from(part)));
const noWait = { backoffMs: () => 0 };

describe("downloadContent", () => {
  it("copies a whole file when no limit is given", async () => {
    const to = join(dir, "whole.csv");
    expect(await downloadContent(chunks("a,b\n", "1,2\n"), to, "whole.csv")).toEqual({
      bytes: 8,
      cut: false,
    });
    expect(readFileSync(to, "utf8")).toBe("a,b\n1,2\n");
  });

  it("copies the first bytes of a larger file, back to its last whole line, and says it cut", async () => {
    const to = join(dir, "cut.csv");
    const copied = await downloadContent(chunks("a,b\n1,2\n3,", "4\n5,6\n"), to, "cut.csv", {
      limitBytes: 13,
    });
    // The first 13 bytes are "a,b\n1,2\n3,4\n5": the partial line "5" is left out.
    expect(copied).toEqual({ bytes: 12, cut: true });
    expect(readFileSync(to, "utf8")).toBe("a,b\n1,2\n3,4\n");
  });

  it("keeps a file that ends exactly at the limit whole", async () => {
    const to = join(dir, "exact.csv");
    expect(await downloadContent(chunks("a\n", "1\n"), to, "exact.csv", { limitBytes: 4 })).toEqual({
      bytes: 4,
      cut: false,
    });
  });

  it("retries a copy that fails mid-way, and gives up after its attempts", async () => {
    let opened = 0;
    const flaky = async () => {
      opened++;
      return opened < 3
        ? Readable.from(
            (async function* () {
              yield Buffer.from("half");
              throw new Error("EIO: the store went away");
            })(),
          )
        : Readable.from([Buffer.from("x\ny\n")]);
    };
    const to = join(dir, "flaky.txt");
    expect(await downloadContent(flaky, to, "flaky.txt", noWait)).toEqual({ bytes: 4, cut: false });
    expect(opened).toBe(3);
    expect(readFileSync(to, "utf8")).toBe("x\ny\n");
    opened = 0;
    await expect(downloadContent(flaky, to, "flaky.txt", { ...noWait, attempts: 2 })).rejects.toThrow(/EIO/);
    expect(opened).toBe(2);
  });

  it("does not retry content the hub does not hold", async () => {
    let opened = 0;
    const missing = async () => {
      opened++;
      return undefined;
    };
    await expect(downloadContent(missing, join(dir, "m"), "m.csv", noWait)).rejects.toThrow(
      MissingContentError,
    );
    expect(opened).toBe(1);
  });
});

import { describe, expect, it } from "vitest";
import { createDownloadCounter, DATASET_DOWNLOAD_WINDOW_MS } from "./download-counter.js";
import type { DownloadIncrement } from "./engagement-table.js";

function counter(library: string | undefined) {
  let clock = Date.parse("2026-11-30T10:00:00.000Z");
  const written: DownloadIncrement[] = [];
  const downloads = createDownloadCounter({
    libraryOf: async () => library,
    addDownloads: async (increments) => {
      written.push(...increments);
    },
    onError: (error) => {
      throw error;
    },
    flushAfterMs: 60_000,
    now: () => new Date(clock),
  });
  return {
    downloads,
    written,
    advance: (ms: number) => {
      clock += ms;
    },
    total: () => written.reduce((sum, increment) => sum + increment.downloads, 0),
  };
}

const dataset = { key: 7, type: "dataset" as const, id: "ada/obs" };
const model = { key: 8, type: "model" as const, id: "ada/tiny" };
const space = { key: 9, type: "space" as const, id: "ada/site" };

describe("the download counter", () => {
  it("counts a dataset once per client and 5-minute window, whatever files it fetches", async () => {
    const { downloads, advance, total, written } = counter(undefined);
    downloads.record(dataset, "data/train.csv", "user:1");
    downloads.record(dataset, "data/test.csv", "user:1");
    downloads.record(dataset, "README.md", "address:10.0.0.2");
    advance(DATASET_DOWNLOAD_WINDOW_MS - 1);
    downloads.record(dataset, "data/train.csv", "user:1");
    await downloads.flush();
    expect(total()).toBe(2);
    advance(1);
    downloads.record(dataset, "data/train.csv", "user:1");
    await downloads.flush();
    expect(total()).toBe(3);
    // A dataset's row keeps no model's counter in step.
    expect(written.every((increment) => increment.modelId === undefined && increment.repoKey === 7)).toBe(
      true,
    );
  });

  it("counts a model by its library's rule, every request, and a space never", async () => {
    const { downloads, total, written } = counter("transformers");
    downloads.record(model, "config.json", "user:1");
    downloads.record(model, "config.json", "user:1");
    downloads.record(model, "model.safetensors", "user:1");
    downloads.record(space, "index.html", "user:1");
    await downloads.flush();
    expect(total()).toBe(2);
    expect(written).toEqual([{ repoKey: 8, day: "2026-11-30", downloads: 2, modelId: "ada/tiny" }]);
  });
});

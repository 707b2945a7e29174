import { describe, expect, it } from "vitest";
import { isAppPage, preloadedPage } from "./web-pages.js";

const exists = {
  repoExists: (type: string, id: string) =>
    (type === "model" && id === "alice/demo") ||
    (type === "dataset" && id === "alice/data") ||
    (type === "space" && id === "alice/app"),
  accountExists: (name: string) => name === "alice" || name === "acme",
};

describe("isAppPage", () => {
  it.each([
    "/alice/demo",
    "/alice/demo/tree/main",
    "/alice/demo/tree/refs%2Fpr%2F1/weights",
    "/alice/demo/blob/main/weights/model.bin",
    "/alice/demo/commits/main",
    "/alice/demo/commits/main/README.md",
    "/alice/demo/commit/0123456789abcdef0123456789abcdef01234567",
    "/alice/demo/upload/main",
    "/alice/demo/new/main/docs",
    "/alice/demo/edit/main/README.md",
    "/datasets",
    "/spaces",
    "/new",
    "/new-dataset",
    "/new-space",
    "/alice",
    "/acme/",
    "/datasets/alice/data",
    "/datasets/alice/data/tree/main/train",
    "/datasets/alice/data/blob/main/train.csv",
    "/datasets/alice/data/commit/0123456",
    "/datasets/alice/data/discussions/3",
    "/datasets/alice/data/settings",
    "/spaces/alice/app",
    "/spaces/alice/app/commits/main",
    "/spaces/alice/app/app",
    "/spaces/alice/app/card",
    "/spaces/alice/app/card/",
    "/search",
    "/settings/webhooks",
    "/organizations/acme/audit-log",
  ])("serves the repository page %s", async (path) => {
    expect(await isAppPage(path, exists)).toBe(true);
  });

  it.each([
    "/alice/demo/tree",
    "/alice/demo/commit/not-a-commit",
    "/alice/demo/elsewhere",
    "/organizations/acme/audit-log/more",
    "/bob/other/tree/main",
    "/bob",
    "/datasets/alice",
    "/datasets/alice/demo",
    "/datasets/alice/data/playground",
    "/datasets/alice/data/libraries/transformers",
    "/spaces/alice/data",
    "/datasets/alice/data/app",
    "/datasets/alice/data/card",
    "/spaces/alice/data/card",
    "/alice/demo/card",
    "/alice/demo/app",
    "/models/alice/app",
  ])("answers 404 for %s", async (path) => {
    expect(await isAppPage(path, exists)).toBe(false);
  });
});

describe("preloadedPage", () => {
  it.each([
    ["/", "home"],
    ["/models", "models"],
    ["/models/", "models"],
    ["/alice/demo", "model"],
    ["/alice/demo/", "model"],
    ["/alice/demo/tree/main", undefined],
    ["/alice/demo/inference", undefined],
    ["/datasets/alice/data", undefined],
    ["/spaces/alice/app", undefined],
    ["/settings/profile", undefined],
    ["/admin/users", undefined],
    ["/organizations/acme", undefined],
    ["/alice", undefined],
    ["/datasets", undefined],
  ])("names %s as %s", (path, page) => {
    expect(preloadedPage(path)).toBe(page);
  });
});

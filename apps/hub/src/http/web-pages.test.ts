import { describe, expect, it } from "vitest";
import { isAppPage } from "./web-pages.js";

const exists = (id: string) => id === "alice/demo";

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
  ])("serves the repository page %s", async (path) => {
    expect(await isAppPage(path, exists)).toBe(true);
  });

  it.each([
    "/alice/demo/tree",
    "/alice/demo/commit/not-a-commit",
    "/alice/demo/elsewhere",
    "/bob/other/tree/main",
  ])("answers 404 for %s", async (path) => {
    expect(await isAppPage(path, exists)).toBe(false);
  });
});

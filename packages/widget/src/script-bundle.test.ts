import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { getTopProductsScript } from "./script-bundle.js";

/** The budget for the embed. */
const GZIP_BUDGET_BYTES = 10 * 1024;

describe("getTopProductsScript", () => {
  it("bundles the script into one minified IIFE within the size budget", async () => {
    const script = await getTopProductsScript();
    expect(script.code.startsWith('"use strict";(()=>{')).toBe(true);
    expect(script.code).not.toMatch(/\bimport\s*[({"']|\bexport\s/);
    expect(script.bytes).toBe(Buffer.byteLength(script.code));
    expect(script.gzipBytes).toBe(gzipSync(script.code, { level: 9 }).length);
    expect(script.gzipBytes).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
    // Reported so the README figure can be checked against a run.
    console.info(`widget script: ${script.bytes} bytes raw, ${script.gzipBytes} bytes gzipped`);
  });

  it("builds once and serves the same bundle from memory", async () => {
    const [first, second] = await Promise.all([getTopProductsScript(), getTopProductsScript()]);
    expect(second).toBe(first);
    expect(first.etag).toMatch(/^"tp1-[\w-]{22}"$/);
    expect(first.lastModified.getTime() % 1000).toBe(0);
    expect(first.lastModified.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

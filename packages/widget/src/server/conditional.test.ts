import { describe, expect, it } from "vitest";
import { acceptsGzip, etagMatches, isNotModified } from "./conditional.js";

const ETAG = '"tp1-abc"';
const MODIFIED = new Date("2026-01-02T03:04:05Z");

describe("conditional requests", () => {
  it.each([
    ['"tp1-abc"', true],
    ['W/"tp1-abc"', true],
    ['"other", "tp1-abc"', true],
    ["*", true],
    ['"tp1-abd"', false],
    ['"tp1-ab"', false],
  ])("If-None-Match %s matches: %s", (header, expected) => {
    expect(etagMatches(header, ETAG)).toBe(expected);
  });

  it("uses If-Modified-Since only without If-None-Match", () => {
    const later = "Fri, 02 Jan 2026 03:04:05 GMT";
    const earlier = "Fri, 02 Jan 2026 03:04:04 GMT";
    expect(isNotModified(new Headers({ "if-modified-since": later }), [ETAG], MODIFIED)).toBe(true);
    expect(isNotModified(new Headers({ "if-modified-since": earlier }), [ETAG], MODIFIED)).toBe(false);
    expect(isNotModified(new Headers({ "if-modified-since": "garbage" }), [ETAG], MODIFIED)).toBe(false);
    expect(
      isNotModified(new Headers({ "if-none-match": '"x"', "if-modified-since": later }), [ETAG], MODIFIED),
    ).toBe(false);
    expect(isNotModified(new Headers(), [ETAG], MODIFIED)).toBe(false);
  });
});

describe("acceptsGzip", () => {
  it.each([
    ["gzip, deflate, br", true],
    ["br;q=1.0, gzip;q=0.8", true],
    ["*", true],
    ["GZIP", true],
    ["gzip;q=0", false],
    ["identity", false],
    ["br", false],
    ["", false],
    [null, false],
  ])("%s -> %s", (header, expected) => {
    expect(acceptsGzip(header)).toBe(expected);
  });

  it("matches any of several representations' validators", () => {
    const headers = new Headers({ "if-none-match": '"tp1-abc-gz"' });
    expect(isNotModified(headers, [ETAG, '"tp1-abc-gz"'], MODIFIED)).toBe(true);
    expect(isNotModified(headers, [ETAG], MODIFIED)).toBe(false);
  });
});

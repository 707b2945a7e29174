import { describe, expect, it } from "vitest";
import { cardImageAllowed } from "./card-images.js";

const PAGE = "https://hub.example.com/alice/demo";

describe("cardImageAllowed", () => {
  it.each([
    "/alice/demo/resolve/main/plot.png",
    "assets/plot.png",
    "https://hub.example.com/x.png",
    "https://images.example.org/cat.png",
  ])("loads %s", (src) => {
    expect(cardImageAllowed(src, PAGE, ["https://images.example.org"])).toBe(true);
  });

  it.each([
    "https://tracker.example/pixel.gif?reader=1",
    "//tracker.example/pixel.gif",
    "http://hub.example.com/x.png",
    "https://hub.example.com.evil.example/x.png",
    "https://images.example.org:8443/cat.png",
    "javascript:alert(1)",
    "data:image/svg+xml,<svg/>",
    "http://[oops",
  ])("does not load %s", (src) => {
    expect(cardImageAllowed(src, PAGE, ["https://images.example.org"])).toBe(false);
  });
});

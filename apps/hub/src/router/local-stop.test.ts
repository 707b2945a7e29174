import { describe, expect, it } from "vitest";
import { createStopScan } from "./local-stop.js";

describe("stop sequences over decoded text", () => {
  it("finds the earliest stop sequence, also one that began before `from`", () => {
    const scan = createStopScan(["world", "lo w"]);
    expect(scan.find("hello world", 0)).toBe(3);
    // "lo w" began at 3, before the 5 characters already looked at: still found.
    expect(scan.find("hello world", 5)).toBe(3);
    expect(scan.find("hello there", 0)).toBe(-1);
  });

  it("holds back an end that may begin a stop sequence, nothing else", () => {
    const scan = createStopScan(["END", "\n\n"]);
    expect(scan.heldBack("text E")).toBe(1);
    expect(scan.heldBack("text EN")).toBe(2);
    expect(scan.heldBack("text\n")).toBe(1);
    expect(scan.heldBack("text")).toBe(0);
    expect(createStopScan([]).heldBack("anything")).toBe(0);
    expect(createStopScan([""]).find("anything", 0)).toBe(-1);
  });
});

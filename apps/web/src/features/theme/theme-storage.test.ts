import { describe, expect, it } from "vitest";
import { readThemeChoice, resolveTheme, THEME_STORAGE_KEY, writeThemeChoice } from "./theme-storage.js";

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe("theme storage", () => {
  it("round-trips a choice under the `theme` key", () => {
    const storage = memoryStorage();
    writeThemeChoice(storage, "dark");
    expect(storage.values.get(THEME_STORAGE_KEY)).toBe("dark");
    expect(readThemeChoice(storage)).toBe("dark");
  });
  it("treats missing, unknown and unreadable values as system", () => {
    expect(readThemeChoice(memoryStorage())).toBe("system");
    expect(readThemeChoice(memoryStorage({ theme: "purple" }))).toBe("system");
    const throwing = {
      getItem: () => {
        throw new Error("denied");
      },
    };
    expect(readThemeChoice(throwing)).toBe("system");
  });
  it("resolves system from the media preference", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
  });
});

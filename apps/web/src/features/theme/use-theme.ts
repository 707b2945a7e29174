import { useCallback, useEffect, useState } from "react";
import { applyTheme, readThemeChoice, type ThemeChoice, writeThemeChoice } from "./theme-storage.js";

const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The theme choice, persisted and applied; "system" follows the OS setting as it changes. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(() => readThemeChoice(window.localStorage));

  useEffect(() => {
    const media = window.matchMedia(DARK_QUERY);
    const apply = () => applyTheme(document.documentElement, choice, media.matches);
    apply();
    if (choice !== "system") return;
    media.addEventListener("change", apply);
    return () => media.removeEventListener("change", apply);
  }, [choice]);

  const choose = useCallback((next: ThemeChoice) => {
    writeThemeChoice(window.localStorage, next);
    setChoice(next);
  }, []);

  return [choice, choose];
}

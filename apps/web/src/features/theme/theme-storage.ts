/** The reader's theme choice, stored in localStorage under `theme` (spec §2). */
export const THEME_STORAGE_KEY = "theme";
export const THEME_CHOICES = ["light", "dark", "system"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);
}

export function readThemeChoice(storage: Pick<Storage, "getItem"> | undefined): ThemeChoice {
  try {
    const stored = storage?.getItem(THEME_STORAGE_KEY);
    return isThemeChoice(stored) ? stored : "system";
  } catch {
    // Storage can be disabled (privacy mode): fall back to the system preference.
    return "system";
  }
}

export function writeThemeChoice(storage: Pick<Storage, "setItem"> | undefined, choice: ThemeChoice): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not persisted, still applied for this page.
  }
}

export function resolveTheme(choice: ThemeChoice, systemPrefersDark: boolean): "light" | "dark" {
  if (choice === "system") return systemPrefersDark ? "dark" : "light";
  return choice;
}

/** Same effect as public/theme.js (loaded first by index.html), which runs before first paint. */
export function applyTheme(root: HTMLElement, choice: ThemeChoice, systemPrefersDark: boolean): void {
  const resolved = resolveTheme(choice, systemPrefersDark);
  root.classList.toggle("dark", resolved === "dark");
  root.style.colorScheme = resolved;
  root.dataset.theme = choice;
}

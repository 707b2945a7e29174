import { type RadioChoice, RadioOptions } from "../../components/ui/radio-options.js";
import { THEME_CHOICES, type ThemeChoice } from "./theme-storage.js";
import { useTheme } from "./use-theme.js";

const LABELS: Record<ThemeChoice, string> = { light: "Light", dark: "Dark", system: "System" };

const ICONS: Record<ThemeChoice, string> = {
  light:
    "M12 4V2m0 20v-2m8-8h2M2 12h2m13.66-5.66 1.41-1.41M4.93 19.07l1.41-1.41m0-11.32L4.93 4.93m14.14 14.14-1.41-1.41M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8Z",
  dark: "M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z",
  system: "M4 5h16v11H4zM8 20h8m-4-4v4",
};

/** Each choice an icon in a round button: the radio covers it, invisible, so the whole circle takes a click. */
const LOOK = {
  label:
    "relative grid size-8 cursor-pointer place-items-center rounded-full text-muted has-checked:bg-accent-soft has-checked:text-accent has-focus-visible:ring-2 has-focus-visible:ring-accent",
  input: "absolute inset-0 cursor-pointer appearance-none rounded-full",
};

const THEME_OPTIONS: RadioChoice<ThemeChoice>[] = THEME_CHOICES.map((option) => ({
  value: option,
  title: LABELS[option],
  ariaLabel: `${LABELS[option]} theme`,
  label: (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="pointer-events-none size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <path d={ICONS[option]} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  ),
}));

/** A segmented radio group: three choices, each reachable with the arrow keys like any radio group. */
export function ThemeSwitcher() {
  const [choice, choose] = useTheme();
  return (
    <fieldset className="flex items-center gap-0.5 rounded-full border border-line bg-surface p-0.5">
      <legend className="sr-only">Colour theme</legend>
      <RadioOptions options={THEME_OPTIONS} choice={choice} onChoose={choose} look={LOOK} />
    </fieldset>
  );
}

import type { SelectOption } from "../components/ui/select.js";
import type { SelectFilter } from "../components/ui/select-filters.js";
import { LICENSES } from "./licenses.js";

/** Select value meaning "no filter": select items may not carry an empty string. */
export const ANY = "any";

/** Languages by ISO 639-1 code, as cards list them (`language:` of models, datasets and spaces). */
export const CARD_LANGUAGES: Array<[string, string]> = [
  ["en", "English"],
  ["zh", "Chinese"],
  ["fr", "French"],
  ["de", "German"],
  ["es", "Spanish"],
  ["ja", "Japanese"],
  ["ko", "Korean"],
  ["ru", "Russian"],
  ["pt", "Portuguese"],
  ["it", "Italian"],
  ["ar", "Arabic"],
  ["hi", "Hindi"],
  ["multilingual", "Multilingual"],
];

/** Options from a fixed list, with a value from the URL kept selectable when the list lacks it. */
export function optionsOf(any: string, entries: Array<[string, string]>, current: string): SelectOption[] {
  const options = entries.map(([value, label]) => ({ value, label }));
  if (current !== ANY && !options.some((option) => option.value === current)) {
    options.unshift({ value: current, label: current });
  }
  return [{ value: ANY, label: any }, ...options];
}

/** The filters every kind of repository's card offers: its license and its language. */
export function cardFilters(values: {
  license: string;
  language: string;
}): SelectFilter<"license" | "language">[] {
  return [
    { key: "license", label: "License", options: optionsOf("Any license", LICENSES, values.license) },
    {
      key: "language",
      label: "Language",
      options: optionsOf("Any language", CARD_LANGUAGES, values.language),
    },
  ];
}

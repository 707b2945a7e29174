import { Select, type SelectOption } from "./select.js";

/** One filter of a list: a select over one of its URL parameters. */
export interface SelectFilter<Key extends string> {
  key: Key;
  label: string;
  options: SelectOption[];
}

/** A list's filters, each a select showing its parameter's value and changing it. */
export function SelectFilters<Key extends string>({
  filters,
  values,
  onChange,
}: {
  filters: ReadonlyArray<SelectFilter<Key>>;
  values: Record<Key, string>;
  onChange: (change: Partial<Record<Key, string>>) => void;
}) {
  return filters.map((filter) => (
    <Select
      key={filter.key}
      label={filter.label}
      value={values[filter.key]}
      options={filter.options}
      onValueChange={(value) => onChange({ [filter.key]: value } as Partial<Record<Key, string>>)}
    />
  ));
}

import { Select, type SelectOption } from "./select.js";

/** One filter of a list: a select over one of its URL parameters. */
export interface SelectFilter<Key extends string> {
  key: Key;
  label: string;
  /** The values the parameter takes (a sort's names, or a filter's values and "any"). */
  options: SelectOption[];
}

/** A list's filters, each a select showing its parameter's value and changing it. */
export function SelectFilters<Key extends string, Values extends Record<Key, string>>({
  filters,
  values,
  onChange,
}: {
  filters: ReadonlyArray<SelectFilter<Key>>;
  values: Values;
  onChange: (change: Partial<Values>) => void;
}) {
  return filters.map((filter) => (
    <Select
      key={filter.key}
      label={filter.label}
      value={values[filter.key]}
      options={filter.options}
      // The select offers only the filter's options: values the parameter takes.
      onValueChange={(value) => onChange({ [filter.key]: value } as Partial<Values>)}
    />
  ));
}

import { LOCAL_APPS, PIPELINE_DATA, PIPELINE_TYPES } from "@modelhub/tasks";
import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { SearchField } from "../../components/ui/search-field.js";
import type { SelectOption } from "../../components/ui/select.js";
import { SelectFilters } from "../../components/ui/select-filters.js";
import { librariesQuery } from "../../lib/api/libraries.js";
import { cardFilters, optionsOf } from "../../lib/card-filters.js";
import { PROVIDER_IDS, providerLabel } from "../../lib/providers.js";
import { taskLabel } from "../../lib/task-labels.js";
import { ANY, type ListParams, PARAMETER_SIZES } from "./list-params.js";

const SORT_OPTIONS: SelectOption[] = [
  { value: "trending", label: "Trending" },
  { value: "downloads", label: "Most downloads" },
  { value: "likes", label: "Most likes" },
  { value: "created", label: "Recently created" },
];

/** The tasks a reader can filter models by (hidden ones are internal), by name. */
const FILTERABLE_TASKS = PIPELINE_TYPES.filter(
  (task) => !(PIPELINE_DATA[task] as { hideInModels?: boolean }).hideInModels,
).sort((a, b) => PIPELINE_DATA[a].name.localeCompare(PIPELINE_DATA[b].name));

const TASK_OPTIONS: SelectOption[] = [
  { value: ANY, label: "Any task" },
  ...FILTERABLE_TASKS.map((task) => ({ value: task, label: taskLabel(task) ?? task })),
];

const PROVIDER_OPTIONS: SelectOption[] = [
  { value: ANY, label: "Any provider" },
  ...PROVIDER_IDS.map((provider) => ({ value: provider, label: providerLabel(provider) })),
];

const SIZE_OPTIONS: SelectOption[] = [
  { value: ANY, label: "Any size" },
  ...Object.entries(PARAMETER_SIZES).map(([value, size]) => ({ value, label: size.label })),
];

const APP_ENTRIES = Object.entries(LOCAL_APPS).map(([key, app]): [string, string] => [key, app.prettyLabel]);

interface ModelsFiltersProps {
  params: ListParams;
  onChange: (change: Partial<ListParams>, options?: { replace?: boolean }) => void;
}

export function ModelsFilters({ params, onChange }: ModelsFiltersProps) {
  const libraries = useQuery(librariesQuery());
  const libraryOptions = useMemo<SelectOption[]>(() => {
    const listed = (libraries.data ?? []).filter((library) => library.filter);
    const options = listed
      .map((library): SelectOption => ({ value: library.id, label: library.prettyLabel }))
      .sort((a, b) => a.label.localeCompare(b.label));
    // Keep a library from the URL selectable even before (or without) the catalogue.
    if (params.library !== ANY && !options.some((option) => option.value === params.library)) {
      options.unshift({ value: params.library, label: params.library });
    }
    return [{ value: ANY, label: "Any library" }, ...options];
  }, [libraries.data, params.library]);

  return (
    <aside aria-label="Filters" className="flex flex-col gap-4">
      <SearchField
        id="model-search"
        label="Search models"
        placeholder="e.g. llama, bert, whisper"
        value={params.search}
        onSearch={(search) => onChange({ search }, { replace: true })}
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-1">
        <SelectFilters
          filters={[
            { key: "sort", label: "Sort", options: SORT_OPTIONS },
            { key: "task", label: "Task", options: TASK_OPTIONS },
            { key: "library", label: "Library", options: libraryOptions },
            { key: "provider", label: "Inference provider", options: PROVIDER_OPTIONS },
            ...cardFilters(params),
            { key: "params", label: "Parameters", options: SIZE_OPTIONS },
            { key: "app", label: "Runs in app", options: optionsOf("Any app", APP_ENTRIES, params.app) },
          ]}
          values={params}
          onChange={onChange}
        />
      </div>
    </aside>
  );
}

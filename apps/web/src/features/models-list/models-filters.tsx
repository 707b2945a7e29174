import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Select, type SelectOption } from "../../components/ui/select.js";
import { librariesQuery } from "../../lib/api/libraries.js";
import type { ModelSort } from "../../lib/api/models.js";
import { PROVIDER_IDS, providerLabel } from "../../lib/providers.js";
import { FILTERABLE_TASKS, taskLabel } from "../../lib/task-labels.js";
import { ANY, type ListParams } from "./list-params.js";

const SEARCH_DEBOUNCE_MS = 250;

const SORT_OPTIONS: SelectOption[] = [
  { value: "trending", label: "Trending" },
  { value: "downloads", label: "Most downloads" },
  { value: "likes", label: "Most likes" },
  { value: "created", label: "Recently created" },
];

const TASK_OPTIONS: SelectOption[] = [
  { value: ANY, label: "Any task" },
  ...FILTERABLE_TASKS.map((task) => ({ value: task, label: taskLabel(task) ?? task })),
];

const PROVIDER_OPTIONS: SelectOption[] = [
  { value: ANY, label: "Any provider" },
  ...PROVIDER_IDS.map((provider) => ({ value: provider, label: providerLabel(provider) })),
];

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
      <SearchField value={params.search} onSearch={(search) => onChange({ search }, { replace: true })} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-1">
        <Select
          label="Sort"
          value={params.sort}
          options={SORT_OPTIONS}
          onValueChange={(sort) => onChange({ sort: sort as ModelSort })}
        />
        <Select
          label="Task"
          value={params.task}
          options={TASK_OPTIONS}
          onValueChange={(task) => onChange({ task })}
        />
        <Select
          label="Library"
          value={params.library}
          options={libraryOptions}
          onValueChange={(library) => onChange({ library })}
        />
        <Select
          label="Inference provider"
          value={params.provider}
          options={PROVIDER_OPTIONS}
          onValueChange={(provider) => onChange({ provider })}
        />
      </div>
    </aside>
  );
}

/** Types freely; the URL (and the request) follows after a short pause. */
function SearchField({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [draft, setDraft] = useState(value);

  // The URL wins when it changes from outside (Back button, a link).
  useEffect(() => setDraft(value), [value]);

  useEffect(() => {
    if (draft === value) return;
    const timer = setTimeout(() => onSearch(draft), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value, onSearch]);

  return (
    <search>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(draft);
        }}
      >
        <label htmlFor="model-search" className="text-xs font-medium text-muted">
          Search models
        </label>
        <input
          id="model-search"
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder="e.g. llama, bert, whisper"
          autoComplete="off"
          className="mt-1 h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted/70 focus:border-accent"
        />
      </form>
    </search>
  );
}

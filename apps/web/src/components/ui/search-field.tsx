import { useEffect, useState } from "react";

const SEARCH_DEBOUNCE_MS = 250;

interface SearchFieldProps {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onSearch: (search: string) => void;
}

/** Types freely; the URL (and the request) follows after a short pause. */
export function SearchField({ id, label, placeholder, value, onSearch }: SearchFieldProps) {
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
        <label htmlFor={id} className="text-xs font-medium text-muted">
          {label}
        </label>
        <input
          id={id}
          type="search"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          placeholder={placeholder}
          autoComplete="off"
          className="mt-1 h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted/70 focus:border-accent"
        />
      </form>
    </search>
  );
}

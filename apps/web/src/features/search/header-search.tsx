import { useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useId, useState } from "react";
import { useNavigate } from "react-router";
import { type QuickResults, quickSearchQuery, repoHref } from "./search-api.js";

const DEBOUNCE_MS = 150;

interface Suggestion {
  href: string;
  label: string;
  kind: string;
  private?: boolean;
}

/** The suggestions in the order the list shows them: repositories by kind, then users and organizations. */
function suggestionsOf(results: QuickResults | undefined): Suggestion[] {
  if (!results) return [];
  return [
    ...results.models.map((m) => ({
      href: repoHref("model", m.id),
      label: m.id,
      kind: "Model",
      private: m.private,
    })),
    ...results.datasets.map((d) => ({
      href: repoHref("dataset", d.id),
      label: d.id,
      kind: "Dataset",
      private: d.private,
    })),
    ...results.spaces.map((s) => ({
      href: repoHref("space", s.id),
      label: s.id,
      kind: "Space",
      private: s.private,
    })),
    ...results.users.map((u) => ({ href: `/${encodeURIComponent(u.user)}`, label: u.user, kind: "User" })),
    ...results.orgs.map((o) => ({
      href: `/organizations/${encodeURIComponent(o.name)}`,
      label: o.name,
      kind: "Organization",
    })),
  ];
}

/**
 * The header's search box (ARIA combobox): suggestions from /api/quicksearch as one types; ArrowDown and
 * ArrowUp move through them, Enter opens the chosen one (or, with none chosen, the search page for the
 * text), Escape closes the list. The last option is always "search for the text" on the search page.
 */
export function HeaderSearch() {
  const id = useId();
  const navigate = useNavigate();
  const [text, setText] = useState("");
  const [asked, setAsked] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    const timer = setTimeout(() => setAsked(text.trim()), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const results = useQuery(quickSearchQuery(asked));
  const q = text.trim();
  const options: Suggestion[] = q
    ? [
        ...(asked === q ? suggestionsOf(results.data) : []),
        { href: `/search?${new URLSearchParams({ q })}`, label: `Search for “${q}”`, kind: "All results" },
      ]
    : [];
  const expanded = open && options.length > 0;

  const go = (option: Suggestion | undefined) => {
    if (!option) return;
    setOpen(false);
    setActive(-1);
    setText("");
    navigate(option.href);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (options.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const last = options.length - 1;
      setActive((current) =>
        event.key === "ArrowDown" ? (current >= last ? 0 : current + 1) : current <= 0 ? last : current - 1,
      );
    } else if (event.key === "Enter") {
      event.preventDefault();
      if (!q) return;
      go(active >= 0 && active < options.length ? options[active] : options[options.length - 1]);
    } else if (event.key === "Escape") {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else setText("");
    }
  };

  return (
    <search className="relative w-full sm:w-64">
      <label htmlFor={`${id}-input`} className="sr-only">
        Search models, datasets, spaces and users
      </label>
      <input
        id={`${id}-input`}
        type="search"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={`${id}-list`}
        aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
        autoComplete="off"
        placeholder="Search models, datasets, users…"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted focus:border-accent"
      />
      <div
        id={`${id}-list`}
        role="listbox"
        aria-label="Search suggestions"
        hidden={!expanded}
        className="absolute inset-x-0 top-full z-40 mt-1 max-h-96 overflow-y-auto rounded-md border border-line bg-surface py-1 shadow-lg"
      >
        {options.map((option, index) => (
          <div
            key={option.href}
            tabIndex={-1}
            id={`${id}-option-${index}`}
            role="option"
            aria-selected={index === active}
            // Chosen before the input's blur closes the list.
            onMouseDown={(event) => {
              event.preventDefault();
              go(option);
            }}
            className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-1.5 text-sm ${index === active ? "bg-accent-soft text-accent" : ""}`}
          >
            <span className="min-w-0 truncate">{option.label}</span>
            <span className="shrink-0 text-xs text-muted">
              {option.kind}
              {option.private ? " · private" : ""}
            </span>
          </div>
        ))}
      </div>
    </search>
  );
}

import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import {
  inputClass,
  SettingsSection,
  SubmitButton,
  secondaryButtonClass,
  TextField,
} from "../account/form-parts.js";
import {
  AUDIT_ACTIONS,
  type AuditEntry,
  type AuditFilters,
  auditBase,
  auditParams,
  auditQuery,
} from "./audit-api.js";

/** A date field's day as the start (`since`) or the end (`until`) of that day, in UTC. */
function dayBound(value: FormDataEntryValue | null, end: boolean): string | undefined {
  const day = String(value ?? "");
  return day ? `${day}T${end ? "23:59:59.999" : "00:00:00.000"}Z` : undefined;
}

function who(entry: AuditEntry): string {
  if (entry.actorName) return entry.actorName;
  return entry.actorKind === "operator" ? "the operator (command line)" : entry.actorKind;
}

function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join(" · ");
}

/**
 * An audit log (an organization's, or the whole site's when `org` is undefined): filters by action, actor,
 * target and days; entries newest first, a page at a time; and a JSON Lines export of what the filters select.
 */
export function AuditLog({ org }: { org?: string }) {
  const ids = useId();
  const [filters, setFilters] = useState<AuditFilters>({});
  // The `before` of each page shown so far: the last is the current page's; going back pops one.
  const [pages, setPages] = useState<Array<number | undefined>>([undefined]);
  const before = pages[pages.length - 1];
  const log = useQuery(auditQuery(org, filters, before));

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim() || undefined;
    setFilters({
      action: text("action"),
      actor: text("actor"),
      target: text("target"),
      since: dayBound(data.get("since"), false),
      until: dayBound(data.get("until"), true),
    });
    setPages([undefined]);
  };
  const next = log.data?.next;
  const exportHref = `${auditBase(org)}/export?${auditParams(filters)}`;

  return (
    <div className="flex flex-col gap-6">
      <SettingsSection title="Filters">
        <form onSubmit={apply} aria-label="Audit log filters" className="grid max-w-3xl gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1">
            <label htmlFor={`${ids}-action`} className="text-sm font-medium">
              Action
            </label>
            <select id={`${ids}-action`} name="action" defaultValue="" className={inputClass}>
              <option value="">Any action</option>
              {AUDIT_ACTIONS.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          </div>
          <TextField label="Actor" name="actor" autoComplete="off" placeholder="user name" />
          <TextField
            label="Target"
            name="target"
            autoComplete="off"
            placeholder="model/acme/bert, a token's name…"
          />
          <div className="grid grid-cols-2 gap-3">
            <TextField label="From" name="since" type="date" />
            <TextField label="To" name="until" type="date" />
          </div>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
            <SubmitButton>Apply filters</SubmitButton>
            <a href={exportHref} download="audit-log.jsonl" className="text-sm underline">
              Export as JSON Lines
            </a>
          </div>
        </form>
      </SettingsSection>
      <SettingsSection title="Entries">
        {log.isPending ? <p className="text-sm text-muted">Loading…</p> : null}
        {log.isError ? (
          <p role="alert" className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">
            {log.error.message}
          </p>
        ) : null}
        {log.data && log.data.entries.length === 0 ? (
          <p className="text-sm text-muted">No entries match.</p>
        ) : null}
        {log.data && log.data.entries.length > 0 ? (
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
          // biome-ignore lint/a11y/useSemanticElements: a div region is what wraps a scrolling table.
          <div className="overflow-x-auto" role="region" aria-label="Audit log entries" tabIndex={0}>
            <table className="w-full min-w-[44rem] text-left text-sm">
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    When
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Who
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Action
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Target
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Details
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    From
                  </th>
                </tr>
              </thead>
              <tbody>
                {log.data.entries.map((entry) => (
                  <tr key={entry.id} className="border-b border-line align-top">
                    <td className="py-2 pr-3 whitespace-nowrap">
                      <time dateTime={entry.createdAt}>{new Date(entry.createdAt).toLocaleString()}</time>
                    </td>
                    <td className="py-2 pr-3 break-words">{who(entry)}</td>
                    <td className="py-2 pr-3 font-mono text-xs">{entry.action}</td>
                    <td className="py-2 pr-3 break-all">{entry.target ?? "—"}</td>
                    <td className="py-2 pr-3 break-words text-xs">{detailsText(entry.details) || "—"}</td>
                    <td className="py-2 text-xs text-muted">{entry.ip ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {pages.length > 1 || next !== undefined ? (
          <nav aria-label="Audit log pages" className="flex gap-2">
            {pages.length > 1 ? (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setPages(pages.slice(0, -1))}
              >
                Newer entries
              </button>
            ) : null}
            {next !== undefined ? (
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() => setPages([...pages, next])}
              >
                Older entries
              </button>
            ) : null}
          </nav>
        ) : null}
      </SettingsSection>
    </div>
  );
}

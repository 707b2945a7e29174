import { useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { runViewerSql, type SqlAnswer } from "../../lib/api/dataset-viewer.js";
import { viewerQuery } from "../../lib/api/session.js";
import { cellText } from "./cell-text.js";

/** Rows per page of a console answer. */
const SQL_PAGE_ROWS = 100;

/** A split's name as a table of the console: quoted, as its names hold slashes and dashes. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The SQL console: one read-only query over the dataset's splits (each a table), run by the hub within its
 * time, row and memory limits; results paged, the hub's error shown as it words it, a running query
 * cancelled with the Cancel button. Buttons that do nothing for now say so with aria-disabled rather than
 * `disabled`: a disabled button loses the keyboard focus (Run query as it starts the query, Cancel as the
 * query ends), which would drop a keyboard user back at the top of the page.
 */
export function SqlConsole({ dataset, tables }: { dataset: string; tables: string[] }) {
  const viewer = useQuery(viewerQuery());
  const [sql, setSql] = useState(`SELECT * FROM ${quoted(tables[0] ?? "train")} LIMIT 10`);
  const [answer, setAnswer] = useState<SqlAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const running_ = useRef<AbortController | null>(null);

  async function run(offset: number) {
    running_.current?.abort();
    const controller = new AbortController();
    running_.current = controller;
    setRunning(true);
    setError(null);
    try {
      setAnswer(
        await runViewerSql(dataset, sql, offset, SQL_PAGE_ROWS, viewer.data?.csrfToken, controller.signal),
      );
    } catch (caught) {
      if (controller.signal.aborted) setError("The query was cancelled.");
      else setError(caught instanceof Error ? caught.message : String(caught));
      setAnswer(null);
    } finally {
      if (running_.current === controller) running_.current = null;
      setRunning(false);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <form
        className="flex flex-col gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          if (!running) void run(0);
        }}
      >
        <label htmlFor="viewer-sql" className="text-xs font-medium text-muted">
          SQL query (read-only; tables: {tables.map(quoted).join(", ")})
        </label>
        <textarea
          id="viewer-sql"
          value={sql}
          onChange={(event) => setSql(event.target.value)}
          onKeyDown={(event) => {
            // Ctrl+Enter (or ⌘+Enter) runs the query from the editor.
            if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              if (!running) void run(0);
            }
          }}
          rows={4}
          spellCheck={false}
          className="w-full rounded-md border border-line bg-surface p-2 font-mono text-sm focus:border-accent"
        />
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="submit"
            aria-disabled={running}
            className="h-9 rounded-md bg-accent px-3 text-sm font-medium text-accent-ink aria-disabled:opacity-60"
          >
            {running ? "Running…" : "Run query"}
          </button>
          <button
            type="button"
            aria-disabled={!running}
            onClick={() => running_.current?.abort()}
            className="h-9 rounded-md border border-line px-3 text-sm aria-disabled:opacity-60"
          >
            Cancel
          </button>
          <span className="text-xs text-muted">Ctrl+Enter runs it.</span>
        </div>
      </form>
      <ErrorAlert message={error} />
      {answer ? <SqlResult answer={answer} onPage={(offset) => void run(offset)} busy={running} /> : null}
    </div>
  );
}

function SqlResult({
  answer,
  onPage,
  busy,
}: {
  answer: SqlAnswer;
  onPage: (offset: number) => void;
  busy: boolean;
}) {
  const from = answer.offset + 1;
  const to = answer.offset + answer.rows.length;
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-muted" aria-live="polite">
        {answer.rows.length === 0
          ? "No rows."
          : `Rows ${from}–${to}${answer.truncated ? " (more follow)" : ""}`}
      </p>
      <section
        aria-label="Query result"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
        tabIndex={0}
        className="max-h-96 overflow-auto rounded-md border border-line bg-surface"
        data-testid="sql-result"
      >
        <table className="min-w-full border-collapse text-sm">
          <thead className="sticky top-0 bg-raised">
            <tr>
              {answer.columns.map((column) => (
                <th key={column.name} scope="col" className="px-2 py-1.5 text-left align-top">
                  <span className="block font-semibold">{column.name}</span>
                  <span className="block font-mono text-xs font-normal text-muted">{column.type}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {answer.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a result row's identity is its place
              <tr key={index} className="border-t border-line">
                {answer.columns.map((column) => (
                  <td key={column.name} className="max-w-xs truncate whitespace-nowrap px-2 py-1.5">
                    {cellText(row[column.name])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <div className="flex gap-2">
        <button
          type="button"
          aria-disabled={busy || answer.offset === 0}
          onClick={() => {
            if (!busy && answer.offset > 0) onPage(Math.max(0, answer.offset - SQL_PAGE_ROWS));
          }}
          className="h-8 rounded-md border border-line px-3 text-sm aria-disabled:opacity-60"
        >
          Previous rows
        </button>
        <button
          type="button"
          aria-disabled={busy || !answer.truncated}
          onClick={() => {
            if (!busy && answer.truncated) onPage(answer.offset + SQL_PAGE_ROWS);
          }}
          className="h-8 rounded-md border border-line px-3 text-sm aria-disabled:opacity-60"
        >
          Next rows
        </button>
      </div>
    </div>
  );
}

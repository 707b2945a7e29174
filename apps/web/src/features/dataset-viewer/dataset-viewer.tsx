import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorAlert } from "../../components/ui/query-state.js";
import { Tabs } from "../../components/ui/tabs.js";
import {
  type RowSource,
  type SplitName,
  type ViewerRow,
  viewerSplitsQuery,
  viewerStatisticsQuery,
  viewerStatusQuery,
} from "../../lib/api/dataset-viewer.js";
import { RowsTable } from "./rows-table.js";
import { SqlConsole } from "./sql-console.js";

const inputClass =
  "h-9 w-full rounded-md border border-line bg-surface px-3 text-sm placeholder:text-muted/70 focus:border-accent";
const buttonClass = "h-9 shrink-0 rounded-md border border-line px-3 text-sm font-medium hover:bg-raised";

/**
 * The dataset page's viewer: the conversion's state (queued, running, or its recorded error), then config and
 * split pickers, the rows (all of them, a search's or a filter's) and a SQL console over the splits.
 */
export function DatasetViewer({ dataset }: { dataset: string }) {
  const status = useQuery(viewerStatusQuery(dataset));
  const done = status.data?.status === "done";
  const splits = useQuery(viewerSplitsQuery(dataset, done));
  return (
    <section aria-labelledby="dataset-viewer-title" className="flex min-w-0 flex-col gap-3">
      <h2 id="dataset-viewer-title" className="text-lg font-semibold">
        Dataset viewer
      </h2>
      {status.isError ? (
        <ErrorAlert message={status.error.message} />
      ) : !status.data ? (
        <p className="text-muted">Loading the viewer…</p>
      ) : status.data.status === "none" ? (
        <p className="text-muted">
          No viewer for this dataset: it has no data file (CSV, TSV, JSON, JSON Lines, Parquet, Arrow or text)
          on main.
        </p>
      ) : status.data.status === "error" ? (
        <div role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm text-danger">
          <p className="font-medium">The dataset could not be converted for the viewer.</p>
          <p className="mt-1 break-words">{status.data.error}</p>
          <p className="mt-1">Fix the file named above and commit: the next commit is converted again.</p>
        </div>
      ) : !done ? (
        <p className="text-muted" aria-live="polite">
          The dataset is being converted for the viewer ({status.data.status})…
        </p>
      ) : splits.isError ? (
        <ErrorAlert message={splits.error.message} />
      ) : !splits.data ? (
        <p className="text-muted">Loading splits…</p>
      ) : splits.data.length === 0 ? (
        <p className="text-muted">The dataset has no split to show.</p>
      ) : (
        <SplitViewer dataset={dataset} splits={splits.data} />
      )}
    </section>
  );
}

function SplitViewer({ dataset, splits }: { dataset: string; splits: SplitName[] }) {
  const [tab, setTab] = useState("rows");
  const [picked, setPicked] = useState(0);
  const split = splits[Math.min(picked, splits.length - 1)]!;
  // A split is a console table by its name, or by config/split when two configs share a name.
  const tables = splits.map((s) =>
    splits.filter((other) => other.split === s.split).length === 1 ? s.split : `${s.config}/${s.split}`,
  );
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-end gap-3">
        <div className="flex min-w-48 flex-col">
          <label htmlFor="viewer-split" className="text-xs font-medium text-muted">
            Config and split
          </label>
          <select
            id="viewer-split"
            value={picked}
            onChange={(event) => setPicked(Number(event.target.value))}
            className={`${inputClass} mt-1`}
          >
            {splits.map((s, index) => (
              <option key={`${s.config}/${s.split}`} value={index}>
                {`${s.config} / ${s.split}`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Tabs
        label="Dataset viewer"
        value={tab}
        onValueChange={setTab}
        tabs={[
          { value: "rows", label: "Rows" },
          { value: "sql", label: "SQL console" },
        ]}
      >
        {tab === "rows" ? (
          <RowsPanel dataset={dataset} split={split} />
        ) : (
          <SqlConsole dataset={dataset} tables={tables} />
        )}
      </Tabs>
    </div>
  );
}

function RowsPanel({ dataset, split }: { dataset: string; split: SplitName }) {
  const [source, setSource] = useState<RowSource>({ kind: "rows" });
  const [search, setSearch] = useState("");
  const [where, setWhere] = useState("");
  const [orderby, setOrderby] = useState("");
  const [openRow, setOpenRow] = useState<ViewerRow | null>(null);
  const statistics = useQuery(viewerStatisticsQuery(dataset, split));
  const clear = () => {
    setSource({ kind: "rows" });
    setSearch("");
    setWhere("");
    setOrderby("");
  };
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <search>
        <form
          className="flex items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setOpenRow(null);
            setSource(search.trim() ? { kind: "search", text: search.trim() } : { kind: "rows" });
          }}
        >
          <div className="flex min-w-0 grow flex-col">
            <label htmlFor="viewer-search" className="text-xs font-medium text-muted">
              Search the text columns
            </label>
            <input
              id="viewer-search"
              type="search"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder="Words to find"
              autoComplete="off"
              className={`${inputClass} mt-1`}
            />
          </div>
          <button type="submit" className={buttonClass}>
            Search
          </button>
        </form>
      </search>
      <form
        aria-label="Filter rows"
        className="grid grid-cols-1 items-end gap-2 sm:grid-cols-[1fr_1fr_auto_auto]"
        onSubmit={(event) => {
          event.preventDefault();
          setOpenRow(null);
          setSource(
            where.trim() || orderby.trim()
              ? { kind: "filter", where: where.trim(), orderby: orderby.trim() }
              : { kind: "rows" },
          );
        }}
      >
        <div className="flex flex-col">
          <label htmlFor="viewer-where" className="text-xs font-medium text-muted">
            Filter (SQL condition)
          </label>
          <input
            id="viewer-where"
            value={where}
            onChange={(event) => setWhere(event.target.value)}
            placeholder={`"label" = 'positive'`}
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} mt-1 font-mono`}
          />
        </div>
        <div className="flex flex-col">
          <label htmlFor="viewer-orderby" className="text-xs font-medium text-muted">
            Order by
          </label>
          <input
            id="viewer-orderby"
            value={orderby}
            onChange={(event) => setOrderby(event.target.value)}
            placeholder={`"score" DESC`}
            autoComplete="off"
            spellCheck={false}
            className={`${inputClass} mt-1 font-mono`}
          />
        </div>
        <button type="submit" className={buttonClass}>
          Apply filter
        </button>
        <button type="button" onClick={clear} className={buttonClass} disabled={source.kind === "rows"}>
          Show all rows
        </button>
      </form>
      <RowsTable
        dataset={dataset}
        split={split}
        source={source}
        statistics={statistics.data ?? []}
        onOpenRow={setOpenRow}
      />
      {openRow ? <RowDetail row={openRow} onClose={() => setOpenRow(null)} /> : null}
    </div>
  );
}

/** A whole row, each cell in full (long text, lists, structs), below the table. */
function RowDetail({ row, onClose }: { row: ViewerRow; onClose: () => void }) {
  return (
    <section
      aria-label={`Row ${row.row_idx}`}
      className="flex flex-col gap-2 rounded-md border border-line bg-surface p-3"
    >
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold">{`Row ${row.row_idx}`}</h3>
        <button type="button" onClick={onClose} className={buttonClass}>
          Close row
        </button>
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {Object.entries(row.row).map(([name, value]) => (
          <div key={name} className="contents">
            <dt className="font-medium text-muted">{name}</dt>
            <dd className="whitespace-pre-wrap break-words font-mono">
              {value === null ? "null" : typeof value === "string" ? value : JSON.stringify(value, null, 2)}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

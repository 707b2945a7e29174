import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../components/ui/query-state.js";
import { formatBytes } from "../../lib/format.js";
import { SettingsSection } from "../account/form-parts.js";
import { fillOf, type StorageUsageView, storageUsageQuery, type VisibilityUsage } from "./storage-api.js";

const VISIBILITIES = [
  { key: "private", label: "Private repositories" },
  { key: "public", label: "Public repositories" },
] as const;

/** At this share of a quota the bar turns to a warning: uploads may soon be refused. */
const WARN_AT = 0.8;

const barColour = (fill: number) => (fill >= 1 ? "bg-danger" : fill >= WARN_AT ? "bg-warn" : "bg-accent");

/** One visibility: bytes used of the quota as a meter, what is pending, and what the quota means. */
function VisibilityMeter({ label, usage }: { label: string; usage: VisibilityUsage }) {
  const fill = fillOf(usage);
  return (
    <div className="flex min-w-0 flex-col gap-2 rounded-md border border-line bg-surface p-4">
      <h3 className="text-sm font-medium">{label}</h3>
      <p className="text-2xl font-semibold tabular-nums">
        {formatBytes(usage.used)}
        <span className="text-sm font-normal text-muted">
          {usage.quota === null ? " used · no quota" : ` of ${formatBytes(usage.quota)}`}
        </span>
      </p>
      {fill !== undefined ? (
        // biome-ignore lint/a11y/useSemanticElements: a native <meter> cannot take the theme's colours in every browser.
        <div
          role="meter"
          aria-label={`${label}: storage used`}
          aria-valuemin={0}
          aria-valuemax={usage.quota ?? 0}
          aria-valuenow={Math.min(usage.used + usage.pending, usage.quota ?? 0)}
          aria-valuetext={`${formatBytes(usage.used + usage.pending)} of ${formatBytes(usage.quota ?? 0)} (${Math.round(fill * 100)}%)`}
          className="h-2 overflow-hidden rounded-full bg-raised"
        >
          <div className={`h-full ${barColour(fill)}`} style={{ width: `${Math.min(100, fill * 100)}%` }} />
        </div>
      ) : null}
      <p className="text-xs text-muted">
        {usage.pending > 0
          ? `${formatBytes(usage.pending)} uploaded but not committed yet (they count until a commit holds them, at most an hour).`
          : "No upload pending."}
        {fill !== undefined && fill >= 1 ? " Over quota: uploads are refused until files are deleted." : ""}
      </p>
    </div>
  );
}

/** The figures of one owner's storage: private and public apart, each against its quota. */
export function StorageFigures({ usage }: { usage: StorageUsageView }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {VISIBILITIES.map(({ key, label }) => (
        <VisibilityMeter key={key} label={label} usage={usage[key]} />
      ))}
    </div>
  );
}

/**
 * A user's or organization's storage (GET /api/quotas/{owner}): what its repositories hold (each content
 * counted once), what is pending, and the quotas the hub enforces on uploads.
 */
export function StorageUsage({ owner, title = "Storage" }: { owner: string; title?: string }) {
  const usage = useQuery(storageUsageQuery(owner));
  return (
    <SettingsSection title={title}>
      <p className="text-sm text-muted">
        Files in {owner}'s repositories, each distinct file counted once. Uploads that would pass a quota are
        refused.
      </p>
      <QueryState query={usage}>{(data) => <StorageFigures usage={data} />}</QueryState>
    </SettingsSection>
  );
}

import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { QueryState } from "../../components/ui/query-state.js";
import { formatBytes } from "../../lib/format.js";
import { SettingsSection } from "../account/form-parts.js";
import {
  fillOf,
  type StorageUsageView,
  TOP_OWNERS,
  topStorageOwnersQuery,
  type VisibilityUsage,
} from "./storage-api.js";

const ownerPath = (owner: StorageUsageView) =>
  owner.type === "org"
    ? `/organizations/${encodeURIComponent(owner.owner)}`
    : `/${encodeURIComponent(owner.owner)}`;

/** A visibility's cell: bytes used, of the quota and how full, with what is pending. */
function UsageCell({ usage }: { usage: VisibilityUsage }) {
  const fill = fillOf(usage);
  return (
    <td className="py-2 pr-3 text-right tabular-nums">
      <span className={fill !== undefined && fill >= 1 ? "font-semibold text-danger" : undefined}>
        {formatBytes(usage.used)}
      </span>
      {usage.quota !== null ? (
        <span className="block text-xs text-muted">
          of {formatBytes(usage.quota)} ({Math.round((fill ?? 0) * 100)}%)
        </span>
      ) : null}
      {usage.pending > 0 ? (
        <span className="block text-xs text-muted">+{formatBytes(usage.pending)} pending</span>
      ) : null}
    </td>
  );
}

/** Site administration: the owners whose repositories use the most storage, most first. */
export function StorageAdmin() {
  const owners = useQuery(topStorageOwnersQuery);
  return (
    <SettingsSection title="Storage">
      <p className="text-sm text-muted">
        The {TOP_OWNERS} users and organizations whose repositories hold the most, each distinct file counted
        once per owner, with their quotas (STORAGE_QUOTAS).
      </p>
      <QueryState query={owners}>
        {(rows) => (
          // Scrolls sideways on a phone: a focusable region, so a keyboard can scroll it too.
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
          // biome-ignore lint/a11y/useSemanticElements: a div region is what wraps a scrolling table.
          <div className="overflow-x-auto" role="region" aria-label="Storage per owner" tabIndex={0}>
            <table className="w-full min-w-[32rem] text-left text-sm">
              <thead>
                <tr className="border-b border-line">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Owner
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Private
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">
                    Public
                  </th>
                  <th scope="col" className="py-2 text-right font-medium">
                    Total
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.length === 0 ? (
                  <tr>
                    <td colSpan={4} className="py-3 text-muted">
                      No repository holds any file yet.
                    </td>
                  </tr>
                ) : null}
                {rows.map((row) => (
                  <tr key={row.owner} className="border-b border-line align-top">
                    <th scope="row" className="py-2 pr-3 font-normal">
                      {row.type ? (
                        <Link to={ownerPath(row)} className="underline">
                          {row.owner}
                        </Link>
                      ) : (
                        row.owner
                      )}
                      <span className="block text-xs text-muted">
                        {row.type === "org" ? "organization" : row.type === "user" ? "user" : "no account"}
                      </span>
                    </th>
                    <UsageCell usage={row.private} />
                    <UsageCell usage={row.public} />
                    <td className="py-2 text-right tabular-nums">
                      {formatBytes(row.private.used + row.public.used)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
    </SettingsSection>
  );
}

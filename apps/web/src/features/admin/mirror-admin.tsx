import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatBytes } from "../../lib/format.js";
import { errorText, FormMessage, SettingsSection, secondaryButtonClass } from "../account/form-parts.js";
import { adminSend, mirrorStatusQuery } from "./admin-api.js";

const number = new Intl.NumberFormat();

/** A term and its value, in the page's description lists. */
function Fact({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="flex justify-between gap-4 border-b border-line py-1.5 text-sm">
      <dt className="text-muted">{term}</dt>
      <dd className="text-right tabular-nums">{children}</dd>
    </div>
  );
}

const list = (values: string[], none: string) => (values.length > 0 ? values.join(", ") : none);

/**
 * The mirror of an upstream hub (`GET /api/admin/mirror`): where it mirrors from, the cache against its cap,
 * hits, misses, transfers and upstream errors since the hub started, and the policy it enforces.
 */
export function MirrorAdmin() {
  const status = useQuery(mirrorStatusQuery);
  const [message, setMessage] = useState<{ error?: string; success?: string }>({});
  const evictAll = async () => {
    try {
      const report = await adminSend<{ evictedFiles: number; evictedBytes: number }>(
        "POST",
        "/api/admin/mirror/evict",
        { all: true },
        ["admin"],
      );
      setMessage({ success: `Evicted ${report.evictedFiles} files (${formatBytes(report.evictedBytes)}).` });
    } catch (error) {
      setMessage({ error: errorText(error) });
    }
  };
  if (status.isPending) return <p className="text-sm text-muted">Loading…</p>;
  if (status.isError) return <FormMessage error={errorText(status.error)} />;
  const { upstream, mode, cache, stats, policy } = status.data;
  const errors = Object.values(stats.upstreamErrors).reduce((sum, value) => sum + value, 0);
  return (
    <div className="flex flex-col gap-6">
      <SettingsSection title="Upstream">
        <dl>
          <Fact term="Mirrors">{upstream ?? "nothing (UPSTREAM_URL is not set)"}</Fact>
          <Fact term="Mode">{mode ?? "—"}</Fact>
          <Fact term="Mirrored repositories">{number.format(cache.mirroredRepositories)}</Fact>
        </dl>
      </SettingsSection>
      <SettingsSection title="Cache">
        <dl>
          <Fact term="Stored">
            {formatBytes(cache.storedBytes)}
            {cache.maxBytes !== null ? ` of ${formatBytes(cache.maxBytes)}` : " (no cap)"}
          </Fact>
          <Fact term="Files stored">
            {number.format(cache.storedFiles)} of {number.format(cache.declaredFiles)} known
          </Fact>
          <Fact term="Hits">{number.format(stats.hits)}</Fact>
          <Fact term="Misses">{number.format(stats.misses)}</Fact>
          <Fact term="Upstream transfers">
            {number.format(stats.transfers.stored)} stored, {number.format(stats.transfers.failed)} failed (
            {formatBytes(stats.upstreamBytes)})
          </Fact>
          <Fact term="Upstream errors">
            {number.format(errors)}
            {errors > 0
              ? ` (unreachable ${stats.upstreamErrors.unreachable}, refused ${stats.upstreamErrors.refused}, wrong bytes ${stats.upstreamErrors.integrity}, cut ${stats.upstreamErrors.cut})`
              : ""}
          </Fact>
          <Fact term="Evicted">
            {number.format(stats.evictions)} files ({formatBytes(stats.evictedBytes)})
          </Fact>
        </dl>
        <p className="text-xs text-muted">Counts since the hub started.</p>
        <div>
          <button type="button" className={secondaryButtonClass} onClick={() => void evictAll()}>
            Evict all cached files
          </button>
        </div>
        <FormMessage error={message.error} success={message.success} />
      </SettingsSection>
      <SettingsSection title="Policy">
        <dl>
          <Fact term="Allowed">{list(policy.allow, "every repository")}</Fact>
          <Fact term="Denied">{list(policy.deny, "none")}</Fact>
          <Fact term="Licences">{list(policy.licenses, "any")}</Fact>
          <Fact term="Local-only namespaces">{list(policy.localNamespaces, "none")}</Fact>
          <Fact term="Largest file">
            {policy.maxFileSize !== null ? formatBytes(policy.maxFileSize) : "no cap"}
          </Fact>
        </dl>
      </SettingsSection>
    </div>
  );
}

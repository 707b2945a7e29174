import type { AuditEntryInput } from "../audit/audit-log.js";
import type { HubEvent } from "../webhooks/hub-events.js";
import type { RepoRecord } from "./repo-records.js";

/**
 * What the audit log keeps of a repository event (audit/audit-log.ts): creation, deletion, moves, visibility
 * and gating changes, merges, and branches and tags created or deleted. Commits moving a branch are history,
 * not audit entries; pull requests' own refs are the discussion's.
 */
export function repoAuditEntries(repo: RepoRecord, event: Omit<HubEvent, "repo">): AuditEntryInput[] {
  const target = `${repo.type}/${repo.id}`;
  const entry = (
    action: AuditEntryInput["action"],
    details?: Record<string, unknown>,
    namespace = repo.owner,
  ) => ({
    action,
    namespace,
    targetType: "repo" as const,
    target,
    ...(details ? { details } : {}),
  });
  if (event.scope === "repo") {
    if (event.action === "create") return [entry("repo.create", { private: repo.private })];
    if (event.action === "delete") return [entry("repo.delete")];
    if (event.action === "move") {
      // Kept under the namespace it left: that organization's admins see where their repository went.
      const from = String(event.updatedConfig?.from ?? "");
      return [entry("repo.move", { from, to: repo.id }, from.split("/")[0] || repo.owner)];
    }
  }
  if (event.scope === "repo.config" && event.updatedConfig) {
    const { private: visibility, gated, ...rest } = event.updatedConfig;
    const entries: AuditEntryInput[] = [];
    if (visibility !== undefined) entries.push(entry("repo.visibility", { private: visibility }));
    if (gated !== undefined) entries.push(entry("repo.gating", { gated }));
    if (Object.keys(rest).length > 0) entries.push(entry("repo.settings", rest));
    return entries;
  }
  if (event.scope === "repo.content") {
    return (event.updatedRefs ?? []).flatMap(({ ref, oldSha, newSha }) => {
      const kind = ref.startsWith("refs/heads/")
        ? "branch"
        : ref.startsWith("refs/tags/")
          ? "tag"
          : undefined;
      if (kind === undefined || (oldSha !== null && newSha !== null)) return [];
      const name = ref.slice(kind === "branch" ? 11 : 10);
      return [
        entry(`${kind}.${oldSha === null ? "create" : "delete"}`, { ref: name, sha: newSha ?? oldSha }),
      ];
    });
  }
  if (event.scope === "discussion" && event.discussion?.status === "merged") {
    return [entry("repo.merge", { num: event.discussion.num, base: event.discussion.base })];
  }
  return [];
}

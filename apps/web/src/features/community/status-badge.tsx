import type { DiscussionStatus } from "../../lib/api/discussions.js";

const STATUS_CLASS: Record<DiscussionStatus, string> = {
  draft: "border-line text-muted",
  open: "border-ok text-ok",
  merged: "border-accent text-accent",
  closed: "border-danger text-danger",
};

export function StatusBadge({ status }: { status: DiscussionStatus }) {
  return (
    <span className={`rounded-full border px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[status]}`}>
      {status}
    </span>
  );
}

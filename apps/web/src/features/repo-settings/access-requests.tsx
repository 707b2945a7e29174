import { useQuery } from "@tanstack/react-query";
import { QueryState } from "../../components/ui/query-state.js";
import { hubGet, hubSend } from "../../lib/api/hub-fetch.js";
import { formatAgo } from "../../lib/format.js";
import { queryClient } from "../../lib/query-client.js";
import { type RepoRef, repoApiUrl } from "../../lib/repo-ref.js";
import { useRepoAction } from "./use-repo-action.js";

interface AccessRequest {
  user: { user: string; fullname?: string };
  status: "pending" | "accepted" | "rejected";
  timestamp: string;
  /** The answers to the card's `extra_gated_fields`, by label. */
  fields?: Record<string, string>;
}

/** What an owner can answer a request with. */
const DECISIONS = [
  { status: "accepted", label: "Accept", className: "rounded-md border border-ok px-2.5 py-1 text-ok" },
  {
    status: "rejected",
    label: "Reject",
    className: "rounded-md border border-danger px-2.5 py-1 text-danger",
  },
] as const;

/** The queue of pending access requests of a gated repository, each accepted or rejected here. */
export function AccessRequests({ repo, csrfToken }: { repo: RepoRef; csrfToken: string }) {
  const key = ["access-requests", repo.type, repo.id];
  const pending = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) =>
      (await hubGet<AccessRequest[]>(repoApiUrl(repo, "user-access-request/pending"), signal)).data,
  });
  const { busy, message, run } = useRepoAction();
  const decide = (user: string, status: "accepted" | "rejected") =>
    run(async () => {
      await hubSend("POST", repoApiUrl(repo, "user-access-request/handle"), csrfToken, {
        json: { user, status },
      });
      await queryClient.invalidateQueries({ queryKey: key });
    }, `${user}: ${status}.`);
  return (
    <section
      aria-labelledby="requests-heading"
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-4"
    >
      <h3 id="requests-heading" className="font-semibold">
        Pending access requests
      </h3>
      <QueryState query={pending}>
        {(data) =>
          data.length === 0 ? (
            <p className="text-sm text-muted">No one is waiting.</p>
          ) : (
            <ul className="flex flex-col divide-y divide-line">
              {data.map((request) => (
                <li key={request.user.user} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                  <span className="min-w-0 flex-1 font-medium">{request.user.user}</span>
                  <time dateTime={request.timestamp} className="text-muted">
                    {formatAgo(request.timestamp)}
                  </time>
                  {DECISIONS.map((decision) => (
                    <button
                      key={decision.status}
                      type="button"
                      disabled={busy}
                      onClick={() => decide(request.user.user, decision.status)}
                      className={decision.className}
                    >
                      {decision.label}
                      <span className="sr-only"> {request.user.user}</span>
                    </button>
                  ))}
                  {Object.keys(request.fields ?? {}).length > 0 ? (
                    <dl className="grid w-full grid-cols-[auto_1fr] gap-x-3 text-muted">
                      {Object.entries(request.fields ?? {}).map(([label, answer]) => (
                        <div key={label} className="contents">
                          <dt className="break-words">{label}</dt>
                          <dd className="min-w-0 break-words text-ink">{answer}</dd>
                        </div>
                      ))}
                    </dl>
                  ) : null}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
      {message ? (
        <p role={message.kind === "ok" ? "status" : "alert"} className="text-sm">
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

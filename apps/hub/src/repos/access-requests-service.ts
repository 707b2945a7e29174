import type { AccessRequest, AccessRequestStatus } from "../accounts/types.js";
import type { AuditRecorder } from "../audit/audit-log.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { Store } from "../store/store.js";
import type { RepoRecord } from "./repo-records.js";

/**
 * Access requests to gated repositories (the accounts keep them): a user asks, the repository's administrators
 * list and decide. `gated: "auto"` accepts a request at once; `"manual"` leaves it pending.
 */
export function createAccessRequestsService(
  store: Store,
  audit?: AuditRecorder,
  /**
   * Told after every decision: grants are kept with the callers' cached credentials (the router's
   * verify-caller.ts), which must be dropped here and on every replica for a revoked grant to stop the next call.
   */
  onDecided: () => void = () => {},
) {
  const requests = store.accounts.accessRequests;
  return {
    ask(repo: RepoRecord, userId: number, fields: Record<string, string>): Promise<AccessRequest> {
      return requests.request({
        repoType: repo.type,
        repoId: repo.id,
        userId,
        status: repo.gated === "auto" ? "accepted" : "pending",
        fields,
      });
    },

    /** The user's own request to the repository, if they made one (what the model page shows them). */
    mine(repo: RepoRecord, userId: number): Promise<AccessRequest | undefined> {
      return requests.get(repo.type, repo.id, userId);
    },

    list(repo: RepoRecord, status: AccessRequestStatus): Promise<AccessRequest[]> {
      return requests.list(repo.type, repo.id, status);
    },

    /**
     * Sets a user's request to `status`. `grant` gives access to a user who never asked (a request is made
     * for them); otherwise the user must have asked.
     */
    async decide(
      repo: RepoRecord,
      userName: string,
      decision: { status: AccessRequestStatus; grant: boolean; decidedBy: number | null },
    ): Promise<void> {
      const user = await store.accounts.users.byName(userName);
      if (!user) throw new NotFoundError(`No user named ${JSON.stringify(userName.slice(0, 100))}.`);
      const existing = await requests.get(repo.type, repo.id, user.id);
      // As on the public hub, a decision that changes nothing is refused (granting twice, accepting an
      // accepted request, cancelling a pending one), so a script learns its view of the list was stale.
      if (existing?.status === decision.status) {
        throw new InvalidInputError(
          decision.status === "accepted"
            ? `${user.name} already has access to ${repo.id}.`
            : `${user.name}'s access request to ${repo.id} is already ${decision.status}.`,
        );
      }
      if (!existing && !decision.grant) {
        throw new NotFoundError(`${user.name} has not asked for access to ${repo.id}.`);
      }
      // The decision and its audit entry land together.
      await store.transaction(async (tx) => {
        const inTx = tx.accounts.accessRequests;
        if (!existing) {
          await inTx.request({
            repoType: repo.type,
            repoId: repo.id,
            userId: user.id,
            status: "pending",
            fields: {},
          });
        }
        await inTx.decide({
          repoType: repo.type,
          repoId: repo.id,
          userId: user.id,
          status: decision.status,
          decidedBy: decision.decidedBy,
        });
        await audit?.record(tx, {
          action: "repo.access-decision",
          namespace: repo.owner,
          targetType: "repo",
          target: `${repo.type}/${repo.id}`,
          details: { user: user.name, status: decision.status, grant: decision.grant },
        });
      });
      onDecided();
    },
  };
}

export type AccessRequestsService = ReturnType<typeof createAccessRequestsService>;

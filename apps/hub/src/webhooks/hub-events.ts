/**
 * What the hub tells webhooks about: an action on a repository, one of its refs, its settings, a discussion
 * or a comment. The repository and discussion domains describe what they did in these terms, inside the
 * transaction that did it (HubEventRecorder), and the webhooks domain turns it into the public hub's payload.
 * Plain types and `eventRepo`: the domains that record events import nothing else from webhooks/.
 */
import type { StoreTransaction } from "../store/store.js";

export type WebhookScope = "repo" | "repo.content" | "repo.config" | "discussion" | "discussion.comment";
export type WebhookAction = "create" | "update" | "delete" | "move";

export interface HubEventRepo {
  /** The repository's row key (its public `id` is derived from it, as the API's `_id` is). */
  key: number;
  type: "model" | "dataset" | "space";
  /** `owner/name`. */
  id: string;
  owner: string;
  private: boolean;
  /** The head of `main` after the event, when it has one. */
  headSha?: string;
}

export interface HubEvent {
  scope: WebhookScope;
  action: WebhookAction;
  repo: HubEventRepo;
  /** repo.content: the refs that moved (`oldSha`/`newSha` null for a created/deleted ref). */
  updatedRefs?: { ref: string; oldSha: string | null; newSha: string | null }[];
  /** repo.config: the settings that changed, with their new values. */
  updatedConfig?: Record<string, unknown>;
  discussion?: {
    num: number;
    title: string;
    status: string;
    isPullRequest: boolean;
    author: string;
    /** Pull requests: the ref it merges into. */
    base?: string;
  };
  comment?: { id: string; author: string; content: string; hidden: boolean };
}

/**
 * Queues an event in the caller's transaction: it is delivered only if that transaction commits, and a
 * committed one is never lost to a crash. Cheap: one INSERT; matching and delivery happen in the background.
 */
export interface HubEventRecorder {
  record(tx: StoreTransaction, event: HubEvent): Promise<void>;
}

/** The event's repository as `tx` holds it after the change (its main branch's head included). */
export async function eventRepo(
  tx: StoreTransaction,
  repo: Omit<HubEventRepo, "headSha">,
): Promise<HubEventRepo> {
  const { key, type, id, owner } = repo;
  return { key, type, id, owner, private: repo.private, headSha: await tx.repos.ref(key, "refs/heads/main") };
}

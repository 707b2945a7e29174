/**
 * What the audit log records: who did what to which repository, token, member or setting, when and from
 * where. The domains that act (repositories, accounts, sign-in) describe the action in these terms inside the
 * transaction that does it (AuditRecorder), so an action and its entry land together or not at all. Plain
 * types: those domains import nothing else from audit/.
 */
import type { Transaction, TransactionOptions } from "../store/database.js";
import type { StoreTransaction } from "../store/store.js";

export const AUDIT_ACTIONS = [
  "repo.create",
  "repo.delete",
  "repo.move",
  "repo.visibility",
  "repo.gating",
  "repo.settings",
  "repo.access-decision",
  "repo.merge",
  "branch.create",
  "branch.delete",
  "tag.create",
  "tag.delete",
  "lfs.delete",
  "token.create",
  "token.revoke",
  "member.role",
  "member.remove",
  "signin.success",
  "signin.failure",
  "provider.create",
  "provider.update",
  "provider.delete",
  "provider.model-map",
  "provider.model-unmap",
  "provider.price-set",
  "provider.price-delete",
  "local-provider.enable",
  "local-provider.disable",
  "model.create",
  "model.update",
  "model.delete",
  "model.mapping-set",
  "model.mapping-delete",
  "catalogue.import",
  "invite.create",
  "scanning.rescan",
  "blobs.gc",
  "mirror.evict",
  "user.admin",
  "user.disable",
  "user.enable",
  "user.password",
  "site.settings",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditTargetType =
  | "repo"
  | "token"
  | "member"
  | "user"
  | "provider"
  | "local-model"
  | "model"
  | "invite"
  /** The hub as a whole (its scan queue, its blob store, its mirror cache): no target. */
  | "site";

/** One action, as the domain that did it describes it; who and from where come from the request. */
export interface AuditEntryInput {
  action: AuditAction;
  /** The user or organization the action concerns (its admins read the entry). */
  namespace: string | null;
  targetType: AuditTargetType;
  /**
   * `type/owner/name` for a repository, a token's name, a member's user name, a provider's router name (an
   * organization's: `org/name`), a local model's `owner/name@QUANT`, a catalogue model's id.
   */
  target: string | null;
  /** What changed (never a secret). */
  details?: Record<string, unknown>;
  /** Who, when the request's caller is not who acted (a failed sign-in names the account tried). */
  actorName?: string;
}

/**
 * Writes an entry in the caller's transaction: it lands only if that transaction commits. Only the audit
 * table of the transaction is written, so domains whose tables are built on a plain transaction (router/)
 * give it theirs (AuditedTransactions).
 */
export interface AuditRecorder {
  record(tx: Pick<StoreTransaction, "audit">, entry: AuditEntryInput): Promise<void>;
}

/**
 * Runs a domain's writes in one transaction together with the entries they leave, for domains whose tables
 * take a Queryable (the router's providers): `q` is the transaction, `record` writes in it. The app and the
 * admin CLI give one; without it (tests, the local engine's reads) the writes run unaudited. Work that reads
 * what it logs (created or updated?) takes the write lock (`immediate`) and `q.lock`s what it reads, so that
 * two writers never both see the state before either.
 */
export interface AuditedTransactions {
  transaction<T>(
    work: (q: Transaction, record: (entry: AuditEntryInput) => Promise<void>) => Promise<T>,
    options?: TransactionOptions,
  ): Promise<T>;
}

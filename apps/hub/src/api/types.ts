/**
 * The hub's own API response shapes, for its clients (the web app imports them as `@modelhub/hub/api`).
 * Pure declarations and constants only: importing this module pulls no server code into a bundle.
 */
import type { GgufQuantization, LibrarySnippet, LocalAppSnippet, ModelLibraryKey } from "@modelhub/tasks";
import type { Org, User } from "../accounts/types.js";
import type { SignupPolicy, SiteSettings } from "../admin/site-settings.js";

/** The actions the audit log records: the web app's filter offers exactly these. */
export { AUDIT_ACTIONS, type AuditAction } from "../audit/audit-log.js";
export type { SignupPolicy };

/**
 * Fields a caller may ask for with `expand[]=`: every one the public hub lists for models (plus `cardText`,
 * the model card). A field this hub has no data for (`sha` before repositories, `evalResults`, `gitalyUid`,
 * `resourceGroup`) is accepted and left out of the answer, as the public hub leaves out what a model lacks.
 */
export const EXPAND_FIELDS = [
  "author",
  "baseModels",
  "cardData",
  "cardText",
  "childrenModelCount",
  "config",
  "createdAt",
  "disabled",
  "downloads",
  "downloadsAllTime",
  "evalResults",
  "gated",
  "gguf",
  "gitalyUid",
  "inference",
  "inferenceProviderMapping",
  "lastModified",
  "library_name",
  "likes",
  "mask_token",
  "model-index",
  "pipeline_tag",
  "private",
  "resourceGroup",
  "safetensors",
  "sha",
  "siblings",
  "spaces",
  "tags",
  "transformersInfo",
  "trendingScore",
  "usedStorage",
  "widgetData",
  "xetEnabled",
] as const;
export type ExpandField = (typeof EXPAND_FIELDS)[number];

/** One entry of `inferenceProviderMapping` in `GET /api/models/{id}?expand[]=inferenceProviderMapping`. */
export interface ProviderMappingView {
  status: "live" | "staging";
  providerId: string;
  task: string;
  /** `"lora"` when the model is an adapter the provider applies to a base model. */
  adapter?: "lora";
  /** The adapter's weights file in the model's repository. */
  adapterWeightsPath?: string;
}

/** `GET /api/libraries`: one entry per library, most used first. */
export interface LibraryView {
  id: ModelLibraryKey;
  prettyLabel: string;
  repoName: string;
  repoUrl: string;
  docsUrl: string | null;
  filter: boolean;
  countDownloads: string | null;
  hasSnippets: boolean;
  modelCount: number;
}

/** A local app that runs the model: its commands, or a link that opens it. */
export type LocalAppView = {
  key: string;
  prettyLabel: string;
  docsUrl: string;
  mainTask: string;
  macOSOnly: boolean;
} & ({ kind: "snippet"; snippets: LocalAppSnippet[] } | { kind: "deeplink"; deeplink: string });

/** `GET /api/models/{id}/library-snippets`. */
export interface LibrarySnippetsView {
  id: string;
  library: string | null;
  libraryLabel: string | null;
  docsUrl: string | null;
  snippets: LibrarySnippet[];
  ggufQuantizations: GgufQuantization[];
  localApps: LocalAppView[];
}

/** One file of a diff, as `GET /api/{type}s/{id}/compare/{rev}?format=json` answers it. */
export interface FileDiff {
  path: string;
  status: "added" | "modified" | "deleted";
  lfs: boolean;
  oldOid?: string;
  newOid?: string;
  oldSize?: number;
  newSize?: number;
  /** Not shown as text: binary content, or larger than the hub's text diff limit (1 MiB). */
  binary: boolean;
  additions: number;
  deletions: number;
  /** Unified diff hunks (`@@ ... @@` and the lines), without file headers; absent for binary files. */
  patch?: string;
}

/** `GET /api/{type}s/{id}/compare/{base}..{head}?format=json` (or `compare/{rev}`: base is its first parent). */
export interface ComparisonView {
  base: { revision: string; oid: string } | null;
  head: { revision: string; oid: string };
  files: FileDiff[];
  /** More files changed than the hub diffs at once. */
  truncated: boolean;
}

/** `GET /api/admin/users`: every user, as the accounts store keeps them (no secret is part of it). */
export type AdminUser = User;

/** `GET /api/admin/orgs`: every organization, with how many members it has. */
export interface AdminOrg extends Org {
  members: number;
}

/** `GET /api/admin/settings`: the stored settings, the policy SIGNUP_POLICY sets, and the one in force. */
export interface AdminSiteSettings extends SiteSettings {
  configuredSignupPolicy: SignupPolicy;
  effectiveSignupPolicy: SignupPolicy;
}

/** One owner's storage (GET /api/quotas/{owner}, GET /api/admin/storage): bytes per visibility. */
export interface StorageUsageView {
  owner: string;
  /** null: no account has this name (the owner of mirrored repositories). */
  type: "user" | "org" | null;
  private: VisibilityUsage;
  public: VisibilityUsage;
}

export interface VisibilityUsage {
  /** Bytes of distinct content the owner's repositories of this visibility reference. */
  used: number;
  /** Bytes uploaded through Xet that no commit references yet (they count against the quota too). */
  pending: number;
  /** Bytes allowed; null: no quota. */
  quota: number | null;
}

/**
 * ONE place decides every access: `authorize(actor, action, resource)`.
 *
 * Contract for routes (every repository, account, organization, admin and router route):
 * - Resolve the actor once per request (the `actor` middleware does it: `c.get("actor")`), load the resource,
 *   then `await authorize(actor, action, resource)` BEFORE reading anything else about the resource or
 *   writing anything. It returns nothing when allowed and throws the HubError to answer otherwise; routes
 *   never look at roles, tokens or `private` themselves.
 * - A repository that does not exist is answered with `repoNotFound(actor, id)`, exactly as `authorize(actor, "read", privateRepo)` refuses a hidden one, so the
 *   two cannot be told apart (status, `X-Error-Code: RepoNotFound`, `X-Error-Message`, body).
 * - Listings use `visibility(actor)` (the same rules as "read", as a filter a query can apply).
 *
 * Resources and actions:
 * | resource                                  | read                  | read-files                 | write                       | manage                          | inference                    |
 * | repo {type, owner, name, private, gated}  | public, or owner/member/site admin (else RepoNotFound) | read + gated: owner, member, site admin or an accepted access request (else GatedRepo) | read + owner or org write/admin (else 403; anonymous 401) | read + owner or org admin (else 403) | run a model: read + gated: owner, member, site admin or an accepted access request, whatever the token's file permissions |
 * (repo, `discuss`: open discussions and pull requests, comment: read + any signed-in user whose credential may
 * write (a read token may not; anonymous 401). What a discussion's author may do beyond is the route's rule.)
 * | namespace {name} (user or org)            | —                     | —                          | create a repository there: the user, or org write/admin | —                   | bill calls to it: the user, or any org member |
 * | org {name}                                | anyone                | —                          | = manage                    | org admin (members, settings)    | —                            |
 * | user {name}                               | anyone                | —                          | = manage                    | that user (profile, password, tokens) | —                       |
 * | site                                      | anyone                | —                          | = manage                    | site admin (users, all orgs, usage) | —                         |
 * Site admins and the operator (ADMIN_TOKEN) pass every check above.
 *
 * What the credential allows on top of who the user is (a token can only narrow, never widen):
 * - a web session: everything the user may do;
 * - a `write` token: everything the user may do; a `read` token: read, read-files and inference only;
 * - a `fineGrained` token: `repo.content.read` / `repo.write` / `repo.manage` on the scopes it lists (a user
 *   or org covers every repository under it, or one repository), `org.read` / `org.write` on an org,
 *   `inference.serverless.write` globally, and gated files only with `canReadGatedRepos`. Public repositories
 *   stay readable with any valid token, as they are anonymously.
 * Invalid credentials never reach authorize: the resolver answers them with 401 InvalidCredentialsError.
 */
import type { AccountsStore } from "../accounts/accounts-store.js";
import type { FineGrainedPermission, OrgRole, RepoType } from "../accounts/types.js";
import type { HubError } from "../errors.js";
import { GatedRepoError, RepoNotFoundError } from "../errors.js";
import { type Actor, roleIn } from "./actor.js";
import { AuthenticationRequiredError, PermissionDeniedError } from "./auth-errors.js";

export const ACTIONS = ["read", "read-files", "discuss", "write", "manage", "inference"] as const;
export type Action = (typeof ACTIONS)[number];

export interface RepoResource {
  kind: "repo";
  type: RepoType;
  /** The namespace (user or org) owning it: the part before the slash. */
  owner: string;
  name: string;
  private: boolean;
  gated: false | "auto" | "manual";
  /**
   * A read-only mirror of an upstream repository: it belongs to no local account, even one with its owner's
   * name, so only site administrators see it when private, read it when gated without a grant, and manage it.
   */
  mirrored?: boolean;
}

/**
 * A storage bucket (buckets/): a repository's rules without gating, pull requests or mirrors. Fine-grained
 * tokens reach it through their namespace scopes only (their repository scopes name models, datasets, spaces).
 */
export interface BucketResource {
  kind: "bucket";
  owner: string;
  /** `owner/name`. */
  id: string;
  private: boolean;
}

export type Resource =
  | RepoResource
  | BucketResource
  | { kind: "namespace"; name: string }
  | { kind: "org"; name: string }
  | { kind: "user"; name: string }
  | { kind: "site" };

const RANK: Record<OrgRole, number> = { read: 1, write: 2, admin: 3 };

function atLeast(role: OrgRole | undefined, wanted: OrgRole): boolean {
  return role !== undefined && RANK[role] >= RANK[wanted];
}

/** The actor's role in the namespace owning a repository (none in a mirrored one's: see RepoResource). */
function repoRole(actor: Actor, repo: RepoResource): OrgRole | undefined {
  return repo.mirrored ? undefined : roleIn(actor, repo.owner);
}

export function repoId(repo: Pick<RepoResource, "owner" | "name">): string {
  return `${repo.owner}/${repo.name}`;
}

/** The answer for a repository that does not exist, identical to a hidden one's. */
export function repoNotFound(actor: Actor, id: string): RepoNotFoundError {
  return new RepoNotFoundError(id, actor.kind === "anonymous");
}

/** A read or fine-grained token: account settings and site administration need a session or a write token. */
function tokenWithoutWrite(actor: Actor): boolean {
  return (
    actor.kind === "user" && actor.credential.kind === "token" && actor.credential.token.role !== "write"
  );
}

function isSiteAdmin(actor: Actor): boolean {
  return actor.kind === "operator" || (actor.kind === "user" && actor.user.isAdmin);
}

/** A permission implies the weaker ones. */
const IMPLIED: Record<FineGrainedPermission, FineGrainedPermission[]> = {
  "repo.content.read": ["repo.content.read"],
  "repo.write": ["repo.write", "repo.content.read"],
  "repo.manage": ["repo.manage", "repo.write", "repo.content.read"],
  "org.read": ["org.read"],
  "org.write": ["org.write", "org.read"],
  "inference.serverless.write": ["inference.serverless.write"],
};

/**
 * Whether the actor's credential lets them use `permission` on the target (a namespace, and the repository
 * when there is one). Sessions and write tokens carry all of the user's rights; read tokens only reading.
 */
function credentialAllows(
  actor: Actor,
  permission: FineGrainedPermission,
  target: { namespace?: string; repo?: { type: RepoType; id: string } },
): boolean {
  if (actor.kind !== "user") return actor.kind === "operator";
  const credential = actor.credential;
  if (credential.kind === "session") return true;
  const { token } = credential;
  if (token.role === "write") return true;
  if (token.role === "read") {
    return (
      permission === "repo.content.read" ||
      permission === "org.read" ||
      permission === "inference.serverless.write"
    );
  }
  const fine = token.fineGrained;
  if (!fine) return false;
  const grants = (list: readonly FineGrainedPermission[]) =>
    list.some((p) => IMPLIED[p].includes(permission));
  if (grants(fine.global)) return true;
  return fine.scoped.some((scope) => {
    const { type, name } = scope.entity;
    const covers =
      type === "user" || type === "org"
        ? target.namespace !== undefined && name.toLowerCase() === target.namespace.toLowerCase()
        : target.repo !== undefined &&
          type === target.repo.type &&
          name.toLowerCase() === target.repo.id.toLowerCase();
    return covers && grants(scope.permissions);
  });
}

/** 401 for the anonymous (they may be allowed once signed in), 403 for everyone else. */
function refuse(actor: Actor, message: string): HubError {
  return actor.kind === "anonymous" ? new AuthenticationRequiredError() : new PermissionDeniedError(message);
}

export interface AuthorizeOptions {
  accounts: AccountsStore;
  /** Where a user asks for access to a gated repository, for the GatedRepo message. */
  accessRequestUrl?: (repo: RepoResource) => string;
}

export interface Authorizer {
  /** Returns when allowed; throws the HubError that answers the refusal. See the module comment. */
  authorize(actor: Actor, action: Action, resource: Resource): Promise<void>;
  /** The same decision as a boolean (for pages that show or hide a button). */
  can(actor: Actor, action: Action, resource: Resource): Promise<boolean>;
}

export function createAuthorizer(options: AuthorizeOptions): Authorizer {
  const requestUrl = options.accessRequestUrl ?? ((repo) => `/${repoId(repo)}`);

  /** May the actor see the repository at all (read)? Undefined when yes, else the refusal. */
  function readRefusal(actor: Actor, repo: RepoResource): HubError | undefined {
    if (!repo.private || isSiteAdmin(actor)) return undefined;
    const visible =
      atLeast(repoRole(actor, repo), "read") &&
      credentialAllows(actor, "repo.content.read", {
        namespace: repo.owner,
        repo: { type: repo.type, id: repoId(repo) },
      });
    return visible ? undefined : repoNotFound(actor, repoId(repo));
  }

  async function repoDecision(
    actor: Actor,
    action: Action,
    repo: RepoResource,
  ): Promise<HubError | undefined> {
    const refusal = readRefusal(actor, repo);
    if (refusal) return refusal;
    const target = { namespace: repo.owner, repo: { type: repo.type, id: repoId(repo) } };
    const role = repoRole(actor, repo);
    switch (action) {
      case "read":
        return undefined;
      case "read-files":
      case "inference": {
        // Gating is for people outside the repository's namespace: owners, members and admins read freely.
        if (!repo.gated || isSiteAdmin(actor) || atLeast(role, "read")) return undefined;
        // Made only to refuse: an error's stack trace is costly, and a granted user's every router call
        // passes here (bench:router zero-latency profile 2026-11-29: building it for calls then allowed took
        // 2.5% of the hub's CPU per streamed call).
        const gated = () =>
          new GatedRepoError(repoId(repo), actor.kind !== "anonymous", requestUrl(repo), repo.type);
        if (actor.kind !== "user") return gated();
        const token = actor.credential.kind === "token" ? actor.credential.token : undefined;
        // Reading a gated repository's files is a token's own permission; running inference on a gated model
        // is the user's grant with a token that may run inference (checked on the namespace billed).
        if (
          action === "read-files" &&
          token?.role === "fineGrained" &&
          !token.fineGrained?.canReadGatedRepos &&
          !credentialAllows(actor, "repo.content.read", target)
        ) {
          return gated();
        }
        const request = await options.accounts.accessRequests.get(repo.type, repoId(repo), actor.user.id);
        return request?.status === "accepted" ? undefined : gated();
      }
      case "discuss":
        // Any signed-in user who can see the repository may open discussions and pull requests on it (a pull
        // request lands on refs/pr/N, never on a branch); the credential must be able to write, though.
        if (actor.kind === "anonymous") return new AuthenticationRequiredError();
        return isSiteAdmin(actor) || credentialAllows(actor, "repo.write", target)
          ? undefined
          : refuse(actor, "This token cannot open discussions or pull requests: use a write token.");
      case "write":
        if (!(atLeast(role, "write") || isSiteAdmin(actor))) {
          return refuse(actor, `You don't have write access to ${repoId(repo)}.`);
        }
        return credentialAllows(actor, "repo.write", target)
          ? undefined
          : refuse(actor, `This token cannot write to ${repoId(repo)}.`);
      case "manage":
        if (!(atLeast(role, "admin") || isSiteAdmin(actor))) {
          return refuse(actor, `You don't have the rights to manage ${repoId(repo)}.`);
        }
        return credentialAllows(actor, "repo.manage", target)
          ? undefined
          : refuse(actor, `This token cannot manage ${repoId(repo)}.`);
    }
  }

  function bucketDecision(actor: Actor, action: Action, bucket: BucketResource): HubError | undefined {
    const role = roleIn(actor, bucket.owner);
    const target = { namespace: bucket.owner };
    if (
      bucket.private &&
      !isSiteAdmin(actor) &&
      !(atLeast(role, "read") && credentialAllows(actor, "repo.content.read", target))
    ) {
      return repoNotFound(actor, bucket.id);
    }
    switch (action) {
      case "read":
      case "read-files":
        return undefined;
      case "write":
        if (!(atLeast(role, "write") || isSiteAdmin(actor))) {
          return refuse(actor, `You don't have write access to the bucket ${bucket.id}.`);
        }
        return credentialAllows(actor, "repo.write", target)
          ? undefined
          : refuse(actor, `This token cannot write to the bucket ${bucket.id}.`);
      case "manage":
        if (!(atLeast(role, "admin") || isSiteAdmin(actor))) {
          return refuse(actor, `You don't have the rights to manage the bucket ${bucket.id}.`);
        }
        return credentialAllows(actor, "repo.manage", target)
          ? undefined
          : refuse(actor, `This token cannot manage the bucket ${bucket.id}.`);
      default:
        return refuse(actor, `Action ${action} does not apply to a bucket.`);
    }
  }

  function namespaceDecision(actor: Actor, action: Action, name: string): HubError | undefined {
    const role = roleIn(actor, name);
    if (action === "write") {
      if (!(atLeast(role, "write") || isSiteAdmin(actor))) {
        return refuse(actor, `You don't have the rights to create a repository under the namespace ${name}.`);
      }
      return credentialAllows(actor, "repo.write", { namespace: name })
        ? undefined
        : refuse(actor, `This token cannot create repositories under ${name}.`);
    }
    if (action === "inference") {
      if (actor.kind === "anonymous")
        return new AuthenticationRequiredError(
          'Inference calls need a token: send "Authorization: Bearer hf_...".',
        );
      if (!(atLeast(role, "read") || actor.kind === "operator")) {
        return refuse(actor, `You are not a member of ${name}: calls cannot be billed to it.`);
      }
      return credentialAllows(actor, "inference.serverless.write", { namespace: name })
        ? undefined
        : refuse(actor, 'This token lacks the "inference" permission (Make calls to Inference Providers).');
    }
    return refuse(actor, `Action ${action} does not apply to a namespace.`);
  }

  async function decide(actor: Actor, action: Action, resource: Resource): Promise<HubError | undefined> {
    switch (resource.kind) {
      case "repo":
        return repoDecision(actor, action, resource);
      case "bucket":
        return bucketDecision(actor, action, resource);
      case "namespace":
        return namespaceDecision(actor, action, resource.name);
      case "org": {
        if (action === "read") return undefined;
        if (action !== "write" && action !== "manage")
          return refuse(actor, `Action ${action} does not apply to an organization.`);
        if (!(atLeast(roleIn(actor, resource.name), "admin") || isSiteAdmin(actor))) {
          return refuse(actor, `You are not an admin of ${resource.name}.`);
        }
        return credentialAllows(actor, "org.write", { namespace: resource.name })
          ? undefined
          : refuse(actor, `This token cannot manage ${resource.name}.`);
      }
      case "user": {
        if (action === "read") return undefined;
        if (action !== "write" && action !== "manage")
          return refuse(actor, `Action ${action} does not apply to a user.`);
        const self = actor.kind === "user" && actor.user.name.toLowerCase() === resource.name.toLowerCase();
        if (!(self || isSiteAdmin(actor))) return refuse(actor, "You may only change your own account.");
        // Account settings are never a fine-grained token's business, and a read token reads only.
        if (tokenWithoutWrite(actor))
          return refuse(actor, "Account settings need a web session or a write token.");
        return undefined;
      }
      case "site": {
        if (action === "read") return undefined;
        if (!isSiteAdmin(actor)) return refuse(actor, "This needs a site administrator.");
        if (tokenWithoutWrite(actor))
          return refuse(actor, "Site administration needs a web session or a write token.");
        return undefined;
      }
    }
  }

  return {
    async authorize(actor, action, resource) {
      const refusal = await decide(actor, action, resource);
      if (refusal) throw refusal;
    },
    async can(actor, action, resource) {
      return (await decide(actor, action, resource)) === undefined;
    },
  };
}

/**
 * Which private repositories a listing may include for this actor: the "read" rule above as a filter.
 * `all`: every repository (site admins); otherwise public ones plus those of `owners` and of `repoIds`.
 */
export type Visibility = { all: true } | { all: false; owners: string[]; repoIds: string[] };

export function visibility(actor: Actor, type: RepoType = "model"): Visibility {
  if (isSiteAdmin(actor)) return { all: true };
  if (actor.kind !== "user") return { all: false, owners: [], repoIds: [] };
  const namespaces = [actor.user.name, ...actor.memberships.map((m) => m.org.name)];
  const credential = actor.credential;
  if (credential.kind === "session" || credential.token.role !== "fineGrained") {
    return { all: false, owners: namespaces, repoIds: [] };
  }
  const owners = namespaces.filter((name) =>
    credentialAllows(actor, "repo.content.read", { namespace: name }),
  );
  const repoIds = (credential.token.fineGrained?.scoped ?? [])
    .filter(
      (scope) =>
        scope.entity.type === type && scope.permissions.some((p) => IMPLIED[p].includes("repo.content.read")),
    )
    .map((scope) => scope.entity.name)
    .filter((id) => namespaces.some((name) => name.toLowerCase() === id.split("/")[0]!.toLowerCase()));
  return { all: false, owners, repoIds };
}
